// Peterson's lock for two threads, access for access as "peterson" in
// spinlocks_test.go: each thread takes the lock once around a critical
// section that checks it is alone there. The busy wait is a loop that only
// loads, which Nidhugg's spin-assume and assume-await transformations
// turn into an await.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

atomic_int flag[2], turn, in;

static void *thread(void *arg) {
  int i = (intptr_t)arg, j = 1 - i;
  atomic_store(&flag[i], 1);
  atomic_store(&turn, j);
  while (!(atomic_load(&flag[j]) == 0 || atomic_load(&turn) != j)) {
  }
  assert(atomic_fetch_add(&in, 1) + 1 == 1);
  atomic_fetch_add(&in, -1);
  atomic_store(&flag[i], 0);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (intptr_t i = 0; i < 2; i++) pthread_create(&t[i], NULL, thread, (void *)i);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  return 0;
}
