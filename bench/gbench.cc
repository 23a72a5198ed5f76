// The C API of gbench.h over Google Benchmark 1.7 (libbenchmark-dev): thin forwarding only.
#include "gbench.h"

#include <benchmark/benchmark.h>

#include <vector>

struct gb_state {
  benchmark::State *state;
};

static benchmark::internal::Benchmark *unwrap(gb_benchmark *b) {
  return reinterpret_cast<benchmark::internal::Benchmark *>(b);
}

extern "C" {

gb_benchmark *gb_register(const char *name, gb_fn fn, void *user) {
  auto *b = benchmark::RegisterBenchmark(name, [fn, user](benchmark::State &state) {
    gb_state s{&state};
    fn(&s, user);
  });
  return reinterpret_cast<gb_benchmark *>(b);
}

void gb_arg(gb_benchmark *b, int64_t value) { unwrap(b)->Arg(value); }
void gb_range(gb_benchmark *b, int64_t lo, int64_t hi) { unwrap(b)->Range(lo, hi); }
void gb_range_multiplier(gb_benchmark *b, int m) { unwrap(b)->RangeMultiplier(m); }
void gb_dense_range(gb_benchmark *b, int64_t lo, int64_t hi, int step) {
  unwrap(b)->DenseRange(lo, hi, step);
}

void gb_args_product(gb_benchmark *b, const int64_t *const *lists, const size_t *lengths,
                     size_t count) {
  std::vector<std::vector<int64_t>> product;
  for (size_t i = 0; i < count; i++) product.emplace_back(lists[i], lists[i] + lengths[i]);
  unwrap(b)->ArgsProduct(product);
}

void gb_complexity(gb_benchmark *b, gb_big_o o) {
  static const benchmark::BigO map[] = {benchmark::oNone,  benchmark::o1,        benchmark::oN,
                                        benchmark::oNLogN, benchmark::oNSquared, benchmark::oAuto};
  unwrap(b)->Complexity(map[o]);
}

void gb_unit(gb_benchmark *b, gb_time_unit unit) {
  static const benchmark::TimeUnit map[] = {benchmark::kNanosecond, benchmark::kMicrosecond,
                                            benchmark::kMillisecond, benchmark::kSecond};
  unwrap(b)->Unit(map[unit]);
}

void gb_min_time(gb_benchmark *b, double seconds) { unwrap(b)->MinTime(seconds); }
void gb_iterations(gb_benchmark *b, int64_t n) { unwrap(b)->Iterations(n); }

bool gb_keep_running(gb_state *s) { return s->state->KeepRunning(); }
int64_t gb_arg_of(gb_state *s, size_t index) { return s->state->range(index); }
int64_t gb_iteration_count(gb_state *s) { return s->state->iterations(); }
void gb_pause(gb_state *s) { s->state->PauseTiming(); }
void gb_resume(gb_state *s) { s->state->ResumeTiming(); }
void gb_set_items(gb_state *s, int64_t items) { s->state->SetItemsProcessed(items); }
void gb_set_bytes(gb_state *s, int64_t bytes) { s->state->SetBytesProcessed(bytes); }
void gb_set_complexity_n(gb_state *s, int64_t n) { s->state->SetComplexityN(n); }
void gb_skip(gb_state *s, const char *message) { s->state->SkipWithError(message); }
void gb_label(gb_state *s, const char *label) { s->state->SetLabel(label); }

void gb_counter(gb_state *s, const char *name, double value, int flags) {
  int f = benchmark::Counter::kDefaults;
  if (flags & GB_RATE) f |= benchmark::Counter::kIsRate;
  if (flags & GB_ITERATION_INVARIANT) f |= benchmark::Counter::kIsIterationInvariant;
  if (flags & GB_AVG_ITERATIONS) f |= benchmark::Counter::kAvgIterations;
  if (flags & GB_INVERT) f |= benchmark::Counter::kInvert;
  s->state->counters[name] = benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(f));
}

void gb_add_context(const char *key, const char *value) { benchmark::AddCustomContext(key, value); }

int gb_main(int *argc, char **argv) {
  benchmark::Initialize(argc, argv);
  if (benchmark::ReportUnrecognizedArguments(*argc, argv)) return 2;
  const size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return ran > 0 ? 0 : 1;
}

} // extern "C"
