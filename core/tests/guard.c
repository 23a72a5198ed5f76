/* Guard-page allocation for tests: the buffer ends exactly where a PROT_NONE page begins. */
#define _DEFAULT_SOURCE
#include "helpers.h"

#include <sys/mman.h>
#include <unistd.h>

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

static size_t span(size_t bytes) {
  const size_t page = page_size();
  return ((bytes + page - 1) / page + 1) * page;
}

void *guard_alloc(size_t bytes) {
  const size_t total = span(bytes);
  unsigned char *base =
      mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  cr_assert(base != MAP_FAILED, "mmap failed");
  const size_t page = page_size();
  cr_assert(mprotect(base + total - page, page, PROT_NONE) == 0, "mprotect failed");
  return base + (total - page - bytes);
}

void guard_free(void *p, size_t bytes) {
  if (p == NULL) return;
  const size_t total = span(bytes);
  const size_t page = page_size();
  unsigned char *end_of_data = (unsigned char *)p + bytes;
  munmap(end_of_data + page - total, total);
}
