HOST_TESTS += rtc_test
# rtc_read's port I/O is not linked here: rtc_test_stubs gives inb/outb nothing to read
rtc_test_SRCS := kernel/rtc.c kernel/fmt.c tests/host/rtc_test_stubs.c
