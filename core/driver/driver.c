/* SPDX-License-Identifier: MIT */
/* driver.c - placeholder; its owner replaces this file. */
typedef int tnorm__placeholder_driver;
