/* SPDX-License-Identifier: MIT */
/* order.c - placeholder; its owner replaces this file. */
typedef int tnorm__placeholder_order;
