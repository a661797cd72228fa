// Lamport's bakery for two threads, access for access as "bakery" in
// spinlocks_test.go: take a number one above every number seen, then wait
// for each other thread to have chosen and to hold no smaller number (ties
// broken by thread).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define N 2

atomic_int choosing[N], number[N], in;

static int may_pass(int i, int j) {
  int nj = atomic_load(&number[j]);
  if (nj == 0) return 1;
  int ni = atomic_load(&number[i]);
  return nj > ni || (nj == ni && j > i);
}

static void *thread(void *arg) {
  int i = (intptr_t)arg;
  atomic_store(&choosing[i], 1);
  int m = 0;
  for (int k = 0; k < N; k++) {
    int v = atomic_load(&number[k]);
    if (v > m) m = v;
  }
  atomic_store(&number[i], m + 1);
  atomic_store(&choosing[i], 0);
  for (int j = 0; j < N; j++) {
    if (j == i) continue;
    while (!(atomic_load(&choosing[j]) == 0)) {
    }
    while (!may_pass(i, j)) {
    }
  }
  assert(atomic_fetch_add(&in, 1) + 1 == 1);
  atomic_fetch_add(&in, -1);
  atomic_store(&number[i], 0);
  return NULL;
}

int main(void) {
  pthread_t t[N];
  for (intptr_t i = 0; i < N; i++) pthread_create(&t[i], NULL, thread, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
  return 0;
}
