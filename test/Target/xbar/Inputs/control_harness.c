/* control_harness.c: runs the C form of the small graph's control programs (nc-compile
 * --emit=control-c, included as CONTROL_C) on stub cores: every stage fires its iterations in order,
 * and every wait must name a producer iteration inside the producer's domain, never earlier than the
 * previous wait of that consumer (the earliest relation is monotone). Prints what fired. */
#include <stdio.h>
#include <stdlib.h>

static long last[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
static long fired[8];
static int bad;

/* Producer p's iteration `rank` (of `n`) is awaited by consumer c. */
static void wait(int c, long rank, long n)
{
  if (rank < 0 || rank >= n || rank < last[c]) {
    printf("bad wait of consumer %d: %ld (domain of %ld, previous %ld)\n", c, rank, n, last[c]);
    bad = 1;
  }
  last[c] = rank;
}

void wait_for_host_input(long y, long x) { wait(0, y * 6 + x, 36); }
void wait_for_conv1(long y, long x) { wait(1, y * 6 + x, 36); }
void wait_for_conv2(long y, long x) { wait(2, y * 3 + x, 9); }
void wait_for_pool1(long y, long x) { wait(3, y * 2 + x, 4); }
void wait_for_flatten1(long y, long x) { wait(4, y * 2 + x, 4); }
void fire_conv1(long y, long x) { (void)y, (void)x, fired[0]++; }
void fire_conv2(long y, long x) { (void)y, (void)x, fired[1]++; }
void fire_pool1(long y, long x) { (void)y, (void)x, fired[2]++; }
void fire_flatten1(long y, long x) { (void)y, (void)x, fired[3]++; }
void fire_matmul1(void) { fired[4]++; }

#include CONTROL_C

int main(void)
{
  conv1_run();
  conv2_run();
  pool1_run();
  flatten1_run();
  matmul1_run();
  printf("fired conv1 %ld, conv2 %ld, pool1 %ld, flatten1 %ld, matmul1 %ld; matmul1 waited for flatten1 "
         "iteration %ld\n", fired[0], fired[1], fired[2], fired[3], fired[4], last[4]);
  printf(bad ? "waits: BAD\n" : "waits: monotone, inside the producers\n");
  return bad;
}
