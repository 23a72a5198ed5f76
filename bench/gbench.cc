// The C API of gbench.h over Google Benchmark 1.7 (libbenchmark-dev): thin forwarding, plus a
// console reporter that shows progress ([k/N] name ... time, elapsed, ETA) and the budget.
#include "gbench.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

struct gb_state {
  benchmark::State *state;
};

namespace {

using Clock = std::chrono::steady_clock;

struct Registration {
  std::string name;
  benchmark::internal::Benchmark *benchmark = nullptr;
  size_t arity = 0; // arguments per instance (0: none)
};
std::deque<Registration> registrations; // stable addresses: the lambdas keep pointers

struct Progress {
  Clock::time_point start = Clock::now();
  Clock::time_point instance_start = Clock::now();
  long total = 0;       // instances to run (COLLIDE_BENCH_TOTAL), 0 when unknown
  long started = 0;     // instances started so far
  bool console = false; // progress lines on (the console format: not with JSON on stdout)
  bool announce = true; // the next call of a benchmark function begins a new instance
  double budget = 0;    // seconds, 0 for none
  std::string label;    // what the budget is for (the suite)
} progress;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string clock_text(double seconds) {
  char buf[32];
  const long s = seconds < 0 ? 0 : static_cast<long>(seconds + 0.5);
  std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

// A time in the unit that keeps it between 1 and 1000 ("16.8 ns", "2.49 us", "1.25 s").
std::string time_text(double value, benchmark::TimeUnit unit) {
  double seconds = value / benchmark::GetTimeUnitMultiplier(unit);
  static const char *const units[] = {"s", "ms", "us", "ns"};
  size_t u = 0;
  while (u < 3 && seconds < 1.0) {
    seconds *= 1000.0;
    u++;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g %s", seconds, units[u]);
  return buf;
}

std::string rate_text(double per_second) {
  static const char *const prefixes[] = {"", "k", "M", "G", "T"};
  size_t p = 0;
  while (p < 4 && per_second >= 1000.0) {
    per_second /= 1000.0;
    p++;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g %s", per_second, prefixes[p]);
  return buf;
}

void announce(const Registration &r, benchmark::State &st) {
  progress.started++;
  progress.announce = false;
  progress.instance_start = Clock::now();
  std::string name = r.name;
  for (size_t i = 0; i < r.arity; i++) name += "/" + std::to_string(st.range(i));
  if (progress.total > 0)
    std::printf("[%*ld/%ld] %s ...", static_cast<int>(std::to_string(progress.total).size()),
                progress.started, progress.total, name.c_str());
  else
    std::printf("[%ld] %s ...", progress.started, name.c_str());
  std::fflush(stdout);
}

// One line per benchmark: the announcement above, completed with its time per iteration,
// items per second, the instance's wall time (setup and Google Benchmark's iteration search
// included), the run's elapsed time and the ETA (the mean wall time so far, times what is left).
class ProgressReporter : public benchmark::BenchmarkReporter {
public:
  bool ReportContext(const Context &context) override {
    PrintBasicContext(&GetErrorStream(), context);
    return true;
  }
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &run : runs) {
      if (run.run_type == Run::RT_Aggregate) {
        if (run.aggregate_unit == benchmark::kTime)
          std::printf("    %s %s\n", run.benchmark_name().c_str(),
                      time_text(run.GetAdjustedRealTime(), run.time_unit).c_str());
        continue;
      }
      if (run.error_occurred) {
        std::printf(" skipped: %s\n", run.error_message.c_str());
        continue;
      }
      std::printf(" %s", time_text(run.GetAdjustedRealTime(), run.time_unit).c_str());
      auto items = run.counters.find("items_per_second");
      if (items != run.counters.end())
        std::printf(", %sitems/s", rate_text(items->second.value).c_str());
      const double elapsed = seconds_since(progress.start);
      std::printf("  [wall %.1f s; elapsed %s", seconds_since(progress.instance_start),
                  clock_text(elapsed).c_str());
      if (progress.total > 0 && progress.started > 0 && progress.started <= progress.total)
        std::printf(", ETA %s", clock_text(elapsed / static_cast<double>(progress.started) *
                                           static_cast<double>(progress.total - progress.started))
                                    .c_str());
      std::printf("]\n");
    }
    std::fflush(stdout);
    progress.announce = true;
  }
};

bool console_format(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (std::strncmp(argv[i], "--benchmark_format=", 19) == 0)
      return std::strcmp(argv[i] + 19, "console") == 0;
  return true;
}

} // namespace

static benchmark::internal::Benchmark *unwrap(gb_benchmark *b) {
  return reinterpret_cast<benchmark::internal::Benchmark *>(b);
}

extern "C" {

// The arguments of an instance are named in its progress line: remember how many it takes.
static void set_arity(gb_benchmark *b, size_t arity) {
  for (auto r = registrations.rbegin(); r != registrations.rend(); ++r)
    if (r->benchmark == unwrap(b)) {
      r->arity = arity;
      return;
    }
}

gb_benchmark *gb_register(const char *name, gb_fn fn, void *user) {
  Registration *r = &registrations.emplace_back();
  r->name = name;
  r->benchmark = benchmark::RegisterBenchmark(name, [fn, user, r](benchmark::State &state) {
    if (progress.console && progress.announce) announce(*r, state);
    gb_state s{&state};
    fn(&s, user);
  });
  return reinterpret_cast<gb_benchmark *>(r->benchmark);
}

void gb_arg(gb_benchmark *b, int64_t value) {
  unwrap(b)->Arg(value);
  set_arity(b, 1);
}
void gb_range(gb_benchmark *b, int64_t lo, int64_t hi) {
  unwrap(b)->Range(lo, hi);
  set_arity(b, 1);
}
void gb_range_multiplier(gb_benchmark *b, int m) { unwrap(b)->RangeMultiplier(m); }
void gb_dense_range(gb_benchmark *b, int64_t lo, int64_t hi, int step) {
  unwrap(b)->DenseRange(lo, hi, step);
  set_arity(b, 1);
}

void gb_args_product(gb_benchmark *b, const int64_t *const *lists, const size_t *lengths,
                     size_t count) {
  std::vector<std::vector<int64_t>> product;
  for (size_t i = 0; i < count; i++) product.emplace_back(lists[i], lists[i] + lengths[i]);
  unwrap(b)->ArgsProduct(product);
  set_arity(b, count);
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

void gb_set_budget(double seconds, const char *label) {
  progress.budget = seconds;
  progress.label = label != nullptr ? label : "";
}

int gb_main(int *argc, char **argv) {
  benchmark::Initialize(argc, argv);
  if (benchmark::ReportUnrecognizedArguments(*argc, argv)) return 2;
  const char *total = std::getenv("COLLIDE_BENCH_TOTAL");
  progress.total = total != nullptr ? std::strtol(total, nullptr, 10) : 0;
  progress.start = Clock::now();
  size_t ran;
  progress.console = console_format(*argc, argv);
  if (progress.console) {
    ProgressReporter reporter;
    ran = benchmark::RunSpecifiedBenchmarks(&reporter);
  } else {
    ran = benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  const double elapsed = seconds_since(progress.start);
  std::fprintf(stderr, "%zu benchmarks in %s", ran, clock_text(elapsed).c_str());
  if (progress.budget > 0) {
    std::fprintf(stderr, " (%s: budget %s)", progress.label.c_str(),
                 clock_text(progress.budget).c_str());
    if (elapsed > progress.budget)
      std::fprintf(stderr, ": OVER BUDGET by %s", clock_text(elapsed - progress.budget).c_str());
  }
  std::fprintf(stderr, "\n");
  return ran > 0 ? 0 : 1;
}

} // extern "C"
