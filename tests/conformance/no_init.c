/* A program that ends without ever initialising MPI, as a test suite's program does when its
   test does not apply (here, as there, it says it was skipped and exits 0). Under augur it must
   end the same: same output, same exit status, nothing predicted. An argument gives another
   exit status. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int status = argc > 1 ? atoi(argv[1]) : 0;
  printf("No MPI here: skipped\n");
  return status;
}
