/* SPDX-License-Identifier: MIT */
/* symbolize.c - placeholder; its owner replaces this file. */
typedef int tnorm__placeholder_symbolize;
