// The C API of gbench.h over Google Benchmark 1.7 (libbenchmark-dev): thin forwarding, plus a
// reporter that shows progress ([k/N] name ... time, elapsed, ETA) and the budget: on stdout in
// the console format, on stderr beside the JSON or CSV that --benchmark_format sends to stdout.
#include "gbench.h"

#include <benchmark/benchmark.h>

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
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

// Wall time per benchmark so far, summed and counted, for the ETA.
struct Spent {
  double seconds = 0;
  long count = 0;
};

struct Progress {
  Clock::time_point start = Clock::now();
  Clock::time_point instance_start = Clock::now();
  long total = 0;       // instances to run (the plan's, or COLLIDE_BENCH_TOTAL), 0: unknown
  long started = 0;     // instances started so far
  FILE *out = stdout;   // where progress lines go (stderr when stdout carries JSON/CSV)
  bool announce = true; // the next call of a benchmark function begins a new instance
  double budget = 0;    // seconds, 0 for none
  std::string label;    // what the budget is for (the suite)
  std::vector<std::string> plan;      // the instances' names in run order (COLLIDE_BENCH_PLAN)
  std::string group;                  // the running instance's group (family/variant)
  Clock::time_point repetition_start; // the running repetition's first call began
  int64_t last_iterations = 0;        // the iterations the previous call ran
  std::map<std::string, Spent> by_group;
  Spent all;
} progress;

// Benchmarks of one family/variant take similar times; families differ by 100x.
std::string group_of(const std::string &name) {
  const size_t first = name.find('/');
  const size_t second = first == std::string::npos ? first : name.find('/', first + 1);
  return name.substr(0, second);
}

// What is left: each planned instance not started yet at its group's mean wall time so far
// (the mean of all instances for a group not reached yet). Without a plan, the mean of all
// instances times their number.
double eta_seconds() {
  const double mean = progress.all.seconds / static_cast<double>(progress.all.count);
  if (progress.plan.empty()) return mean * static_cast<double>(progress.total - progress.started);
  double left = 0;
  for (size_t i = static_cast<size_t>(progress.started); i < progress.plan.size(); i++) {
    auto g = progress.by_group.find(group_of(progress.plan[i]));
    left += g != progress.by_group.end() ? g->second.seconds / static_cast<double>(g->second.count)
                                         : mean;
  }
  return left;
}

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
  progress.last_iterations = 0;
  std::string name = r.name;
  for (size_t i = 0; i < r.arity; i++) name += "/" + std::to_string(st.range(i));
  progress.group = group_of(name);
  if (progress.total > 0)
    std::fprintf(progress.out, "[%*ld/%ld] %s ...",
                 static_cast<int>(std::to_string(progress.total).size()), progress.started,
                 progress.total, name.c_str());
  else
    std::fprintf(progress.out, "[%ld] %s ...", progress.started, name.c_str());
  std::fflush(progress.out);
}

// One line per benchmark: the announcement above, completed with its time per iteration,
// items per second, the instance's wall time (setup and Google Benchmark's iteration search
// included), the run's elapsed time and the ETA (eta_seconds). With an inner reporter (JSON or
// CSV on stdout) the context and the runs also go to it, and the lines go to stderr.
class ProgressReporter : public benchmark::BenchmarkReporter {
public:
  explicit ProgressReporter(benchmark::BenchmarkReporter *inner) : inner_(inner) {}

  bool ReportContext(const Context &context) override {
    if (inner_ != nullptr) return inner_->ReportContext(context);
    // Google Benchmark's context, and a word on its one alarming line: Debian builds the
    // library without NDEBUG; the timed loop (benchmark.h's inline iteration) is ours.
    std::ostringstream text;
    PrintBasicContext(&text, context);
    GetErrorStream() << text.str();
    if (text.str().find("built as DEBUG") != std::string::npos)
      GetErrorStream()
          << "(collide: that warning is about Debian's build of the Google Benchmark "
             "library, its bookkeeping between timed batches; collide's kernels and "
             "the timed loops around them are built optimized with collide's flags.)\n";
    return true;
  }
  void ReportRuns(const std::vector<Run> &runs) override {
    FILE *out = progress.out;
    for (const Run &run : runs) {
      if (run.run_type == Run::RT_Aggregate) {
        if (run.aggregate_unit == benchmark::kTime)
          std::fprintf(out, "    %s %s\n", run.benchmark_name().c_str(),
                       time_text(run.GetAdjustedRealTime(), run.time_unit).c_str());
        continue;
      }
      if (run.error_occurred) {
        std::fprintf(out, " skipped: %s\n", run.error_message.c_str());
        continue;
      }
      const double wall = seconds_since(progress.instance_start);
      Spent &group = progress.by_group[progress.group];
      group.seconds += wall;
      group.count++;
      progress.all.seconds += wall;
      progress.all.count++;
      std::fprintf(out, " %s", time_text(run.GetAdjustedRealTime(), run.time_unit).c_str());
      auto items = run.counters.find("items_per_second");
      if (items != run.counters.end())
        std::fprintf(out, ", %sitems/s", rate_text(items->second.value).c_str());
      const double elapsed = seconds_since(progress.start);
      std::fprintf(out, "  [wall %.1f s; elapsed %s", wall, clock_text(elapsed).c_str());
      if (progress.total > 0 && progress.started > 0 && progress.started <= progress.total)
        std::fprintf(out, ", ETA %s", clock_text(eta_seconds()).c_str());
      std::fprintf(out, "]\n");
    }
    std::fflush(out);
    progress.announce = true;
    if (inner_ != nullptr) inner_->ReportRuns(runs);
  }
  void Finalize() override {
    if (inner_ != nullptr) inner_->Finalize();
  }

private:
  benchmark::BenchmarkReporter *inner_;
};

// The value of --NAME=value on the command line (the last one, as Google Benchmark takes it),
// or nullptr. Read before benchmark::Initialize, which removes the flags it knows.
const char *flag_value(int argc, char **argv, const char *name) {
  const size_t n = std::strlen(name);
  const char *value = nullptr;
  for (int i = 1; i < argc; i++)
    if (std::strncmp(argv[i], "--", 2) == 0 && std::strncmp(argv[i] + 2, name, n) == 0 &&
        argv[i][2 + n] == '=')
      value = argv[i] + 3 + n;
  return value;
}

// The planned instances, one name a line (the --benchmark_list_tests output of the same
// command line), so that the ETA can weigh what is left by family.
void read_plan(const char *path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "gbench: COLLIDE_BENCH_PLAN=%s: cannot read it: %s\n", path,
                 std::strerror(errno));
    return;
  }
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) progress.plan.push_back(line);
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
    if (progress.announce) announce(*r, state);
    const Clock::time_point t0 = Clock::now();
    // Google Benchmark calls the function with rising iteration counts until one call is long
    // enough and reports that one; a repetition reruns its count. A count not above the
    // previous call's therefore starts a new repetition.
    if (state.max_iterations <= progress.last_iterations || progress.last_iterations == 0)
      progress.repetition_start = t0;
    progress.last_iterations = state.max_iterations;
    gb_state s{&state};
    fn(&s, user);
    // Where the wall time goes, in every run's JSON (the report sums them): the repetition's
    // wall time so far, and the part of it the dropped calls of the iteration search took.
    // The counters of the reported (last) call are the ones kept.
    state.counters["wall_seconds"] = seconds_since(progress.repetition_start);
    state.counters["search_seconds"] =
        std::chrono::duration<double>(t0 - progress.repetition_start).count();
  });
  return reinterpret_cast<gb_benchmark *>(r->benchmark);
}

const char *gb_registered_name(size_t i) {
  return i < registrations.size() ? registrations[i].name.c_str() : nullptr;
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
  // Read before Initialize removes them from argv.
  const char *format_flag = flag_value(*argc, argv, "benchmark_format");
  const std::string format = format_flag != nullptr ? format_flag : "console";
  const char *filter_flag = flag_value(*argc, argv, "benchmark_filter");
  const std::string filter = filter_flag != nullptr ? filter_flag : "";
  if (format != "console" && format != "json" && format != "csv") {
    std::fprintf(stderr, "%s: --benchmark_format=%s: use console, json or csv\n", argv[0],
                 format.c_str());
    return 2;
  }
  benchmark::Initialize(argc, argv);
  if (benchmark::ReportUnrecognizedArguments(*argc, argv)) return 2;
  const char *total = std::getenv("COLLIDE_BENCH_TOTAL");
  progress.total = total != nullptr ? std::strtol(total, nullptr, 10) : 0;
  const char *plan = std::getenv("COLLIDE_BENCH_PLAN");
  if (plan != nullptr && plan[0] != '\0') read_plan(plan);
  if (!progress.plan.empty()) progress.total = static_cast<long>(progress.plan.size());
  progress.start = Clock::now();
  std::unique_ptr<benchmark::BenchmarkReporter> inner;
  if (format == "json") {
    inner.reset(new benchmark::JSONReporter);
  } else if (format == "csv") {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    inner.reset(new benchmark::CSVReporter); // deprecated upstream, still what the flag asks
#pragma GCC diagnostic pop
  }
  progress.out = inner ? stderr : stdout;
  ProgressReporter reporter(inner.get());
  const size_t ran = benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  if (ran == 0) {
    std::fprintf(stderr, "%s: no benchmark matches --benchmark_filter=%s", argv[0], filter.c_str());
    if (!progress.label.empty()) std::fprintf(stderr, " in suite '%s'", progress.label.c_str());
    std::fprintf(stderr, "\n");
    return 1;
  }
  const double elapsed = seconds_since(progress.start);
  std::fprintf(stderr, "%zu benchmarks in %s", ran, clock_text(elapsed).c_str());
  if (progress.budget > 0) {
    std::fprintf(stderr, " (%s: budget %s)", progress.label.c_str(),
                 clock_text(progress.budget).c_str());
    if (elapsed > progress.budget)
      std::fprintf(stderr, ": OVER BUDGET by %s", clock_text(elapsed - progress.budget).c_str());
  }
  std::fprintf(stderr, "\n");
  return 0;
}

} // extern "C"
