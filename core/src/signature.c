/* SPDX-License-Identifier: MIT */
/* signature.c - placeholder; its owner replaces this file. */
typedef int tnorm__placeholder_signature;
