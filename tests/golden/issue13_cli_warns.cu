// Issue 13 command-line case: nvcc warns about this file (an unused variable), and with
// -DSPIN_LOCK it holds a seed 003 Fig. 1 spin lock. `simtsync analyze --json` must still print
// JSON alone on stdout; -D must reach nvcc.
__global__ void cli_case(int* mutex, int* counter) {
  int unused_on_purpose;
#ifdef SPIN_LOCK
  while (atomicCAS(mutex, 0, 1) != 0) {
  }
#endif
  *counter = *counter + 1;
  __threadfence();
  atomicExch(mutex, 0);
}
