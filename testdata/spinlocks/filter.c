// The filter lock (Peterson's for N threads, 2 or 3), access for access
// as "filter" in spinlocks_test.go: N-1 levels, each with a victim; a
// thread leaves level l once no other is at l or above, or it is no
// longer l's victim.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#ifndef N
#define N 2
#endif

atomic_int level[N], victim[N], in;

static int may_leave(int i, int l) {
  for (int k = 0; k < N; k++)
    if (k != i && atomic_load(&level[k]) >= l) return atomic_load(&victim[l]) != i;
  return 1;
}

static void *thread(void *arg) {
  int i = (intptr_t)arg;
  for (int l = 1; l < N; l++) {
    atomic_store(&level[i], l);
    atomic_store(&victim[l], i);
    while (!may_leave(i, l)) {
    }
  }
  assert(atomic_fetch_add(&in, 1) + 1 == 1);
  atomic_fetch_add(&in, -1);
  atomic_store(&level[i], 0);
  return NULL;
}

int main(void) {
  pthread_t t[N];
  for (intptr_t i = 0; i < N; i++) pthread_create(&t[i], NULL, thread, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
  return 0;
}
