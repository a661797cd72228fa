// Dekker's lock for two threads, access for access as "dekker" in
// spinlocks_test.go. Each busy wait is a loop that only loads.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

atomic_int flag[2], turn, in;

static void lock(int i) {
  int j = 1 - i;
  atomic_store(&flag[i], 1);
  for (;;) {
    int enter;
    // Wait until the other does not want in (enter) or the turn is the
    // other's (withdraw).
    while (!((enter = atomic_load(&flag[j]) == 0) || atomic_load(&turn) != i)) {
    }
    if (enter) return;
    atomic_store(&flag[i], 0);
    while (!(atomic_load(&turn) == i)) {
    }
    atomic_store(&flag[i], 1);
  }
}

static void *thread(void *arg) {
  int i = (intptr_t)arg;
  lock(i);
  assert(atomic_fetch_add(&in, 1) + 1 == 1);
  atomic_fetch_add(&in, -1);
  atomic_store(&turn, 1 - i);
  atomic_store(&flag[i], 0);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (intptr_t i = 0; i < 2; i++) pthread_create(&t[i], NULL, thread, (void *)i);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  return 0;
}
