/* SPDX-License-Identifier: MIT */
/* exit125: says the test is invalid. */
int main(void)
{
	return 125;
}
