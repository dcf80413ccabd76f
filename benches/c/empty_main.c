/* Start-up cost: a program that calls nothing. Linked (--no-as-needed) against the three
 * stubs, against the real libraries, or against nothing. */
int main(void) { return 0; }
