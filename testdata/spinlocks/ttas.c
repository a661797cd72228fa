// A test-and-test-and-set lock taken by N threads (2 or 3), access for
// access as "ttas" in spinlocks_test.go: wait until it looks free, then
// try a compare-and-swap.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#ifndef N
#define N 2
#endif

atomic_int held, in;

static void *thread(void *arg) {
  for (;;) {
    while (!(atomic_load(&held) == 0)) {
    }
    int zero = 0;
    if (atomic_compare_exchange_strong(&held, &zero, 1)) break;
  }
  assert(atomic_fetch_add(&in, 1) + 1 == 1);
  atomic_fetch_add(&in, -1);
  atomic_store(&held, 0);
  return NULL;
}

int main(void) {
  pthread_t t[N];
  for (intptr_t i = 0; i < N; i++) pthread_create(&t[i], NULL, thread, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
  return 0;
}
