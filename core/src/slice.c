/* SPDX-License-Identifier: MIT */
/* slice.c - placeholder; its owner replaces this file. */
typedef int tnorm__placeholder_slice;
