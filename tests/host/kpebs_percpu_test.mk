HOST_TESTS += kpebs_percpu_test
kpebs_percpu_test_SRCS = loads/kpebs.c loads/kpebs_judge.c loads/kpebs_print.c loads/kpebs_ktap.c loads/pebs_cost.c \
	loads/pebs_verdict.c loads/pv_xsrc.c loads/geometry.c loads/plan.c pebs/percpu.c \
	pebs/measure.c pebs/cycles.c ibs/amd_cycles.c pebs/aggbuf.c sample/aggregate.c sample/agg_print.c pebs/record_print.c pebs/datasrc.c \
	pebs/datasrc_tables.c sample/names.c pebs/datasrc_pantherc.c pebs/cntr_snap.c loads/kstep.c loads/latmatrix.c \
	kernel/ktap.c tests/model/vclock.c \
	kernel/console.c $(filter-out tests/stubs/console.c,$(PEBS_DRIVER_SRCS)) $(PMU_MODEL_SRCS)
