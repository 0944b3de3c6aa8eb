/* SPDX-License-Identifier: MIT */
/* test.c - placeholder; its owner replaces this file. */
typedef int tnorm__placeholder_test;
