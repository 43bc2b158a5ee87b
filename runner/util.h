/*
 * util.h — what the runner's trial needs from its kernels' convention (until trial.h holds it).
 */
#ifndef SMTBENCH_RUNNER_UTIL_H
#define SMTBENCH_RUNNER_UTIL_H

#include "common/alloc.h"
#include "common/error.h"

/* Kernels exit with this status when the CPU lacks what they need (e.g. AVX2). */
#define KERNEL_EXIT_UNSUPPORTED 77

#endif
