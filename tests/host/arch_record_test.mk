HOST_TESTS += arch_record_test
arch_record_test_SRCS := pebs/record.c pebs/arch_record.c tests/model/arch_rec_build.c
