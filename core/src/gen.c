/* SPDX-License-Identifier: MIT */
/* gen.c - placeholder; its owner replaces this file. */
typedef int tnorm__placeholder_gen;
