// n independent pairs of threads, as weft's program pairs: in pair i one
// thread reads x_i and the other writes it, so there are 2^n traces.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#ifndef N
#define N 3
#endif

atomic_int x[N];

static void *reader(void *arg) {
  (void)atomic_load(&x[(intptr_t)arg]);
  return NULL;
}

static void *writer(void *arg) {
  atomic_store(&x[(intptr_t)arg], 1);
  return NULL;
}

int main(void) {
  pthread_t t[2 * N];
  for (intptr_t i = 0; i < N; i++) {
    pthread_create(&t[2 * i], NULL, reader, (void *)i);
    pthread_create(&t[2 * i + 1], NULL, writer, (void *)i);
  }
  return 0;
}
