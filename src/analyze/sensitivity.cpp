#include "analyze/sensitivity.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "util/duration.hpp"
#include "util/numbers.hpp"

namespace augur::analyze {
namespace {

// splitmix64: a well-mixed 64-bit value from any other, so each (seed, rank, grain) draws alone.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A uniform number in (0, 1).
double uniform(std::uint64_t seed, int rank, std::uint64_t k, std::uint64_t stream) {
  const auto h = mix(mix(mix(seed) ^ static_cast<std::uint64_t>(rank)) ^ k ^ (stream << 62));
  return (static_cast<double>(h >> 11) + 0.5) / 9007199254740992.0;
}

double seconds_of(const std::string& text, const std::string& whole) {
  const auto s = util::parse_seconds(text);
  if (!s || *s < 0) throw std::invalid_argument(fmt::format("--noise '{}': '{}' is not a time such as 10us", whole, text));
  return *s;
}

// Runs body(i) for i in [0, n) on up to `threads` threads, taking the next index as each ends.
void parallel_for(std::size_t n, int threads, const std::function<void(std::size_t)>& body) {
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (auto i = next++; i < n; i = next++) body(i);
  };
  const int extra = std::max(0, std::min<int>(threads, static_cast<int>(n)) - 1);
  std::vector<std::thread> pool;
  std::exception_ptr failure;
  std::mutex m;
  for (int t = 0; t < extra; ++t)
    pool.emplace_back([&] {
      try {
        work();
      } catch (...) {
        std::lock_guard lock(m);
        if (!failure) failure = std::current_exception();
        next = n;
      }
    });
  try {
    work();
  } catch (...) {
    next = n;
    for (auto& t : pool) t.join();
    throw;
  }
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

// The factor step of the slope: for a time (or a time per byte) a whole number of picoseconds,
// so that on LogGOPS, which keeps times to the picosecond, the step adds exactly k steps.
double slope_step(const sim::Knob& k, double relative) {
  if (k.unit == "x" || !(k.value > 0)) return relative;
  const double whole = std::max(1.0, std::round(k.value * relative * 1e12)) / 1e12;
  return whole / k.value;
}

// The simulator, counted, behind a cache: no factor of a parameter is simulated twice, whichever
// of the samples, the slope's runs and the searches asks for it.
class Runner {
 public:
  explicit Runner(const Simulator& s) : sim_(s) {}
  double time(const RunSpec& spec) {
    const auto key = std::pair(spec.knob, spec.factor);
    if (!spec.noise) {
      std::lock_guard lock(m_);
      if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
    }
    ++runs_;
    const double t = sim_.time(spec);
    if (!spec.noise) {
      std::lock_guard lock(m_);
      cache_[key] = t;
    }
    return t;
  }
  std::uint64_t runs() const { return runs_; }

 private:
  const Simulator& sim_;
  std::atomic<std::uint64_t> runs_{0};
  std::mutex m_;
  std::map<std::pair<std::string, double>, double> cache_;
};

}  // namespace

double Noise::delay(std::uint64_t seed, int rank, std::uint64_t k) const {
  switch (kind) {
    case Kind::constant: return a;
    case Kind::uniform: return a + (b - a) * uniform(seed, rank, k, 0);
    case Kind::exponential: return -a * std::log(uniform(seed, rank, k, 0));
    case Kind::normal: {  // Box–Muller, cut at 0
      const double u = uniform(seed, rank, k, 1), v = uniform(seed, rank, k, 2);
      return std::max(0.0, a + b * std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * v));
    }
  }
  return 0;
}

Noise parse_noise(const std::string& text) {
  Noise n;
  n.text = text;
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon), rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (rest.empty())
    throw std::invalid_argument(fmt::format("--noise '{}': give KIND:PARAMETERS: const:D, uniform:A..B, exp:MEAN or "
                                            "normal:MEAN,SD", text));
  if (kind == "const") {
    n.kind = Noise::Kind::constant, n.a = seconds_of(rest, text);
  } else if (kind == "exp") {
    n.kind = Noise::Kind::exponential, n.a = seconds_of(rest, text);
  } else if (kind == "uniform") {
    const auto dots = rest.find("..");
    if (dots == std::string::npos) throw std::invalid_argument(fmt::format("--noise '{}': uniform takes A..B", text));
    n.kind = Noise::Kind::uniform, n.a = seconds_of(rest.substr(0, dots), text), n.b = seconds_of(rest.substr(dots + 2), text);
    if (n.b < n.a) throw std::invalid_argument(fmt::format("--noise '{}': B must not be below A", text));
  } else if (kind == "normal") {
    const auto comma = rest.find(',');
    if (comma == std::string::npos) throw std::invalid_argument(fmt::format("--noise '{}': normal takes MEAN,SD", text));
    n.kind = Noise::Kind::normal, n.a = seconds_of(rest.substr(0, comma), text), n.b = seconds_of(rest.substr(comma + 1), text);
  } else {
    throw std::invalid_argument(fmt::format("--noise '{}': unknown distribution '{}' (const, uniform, exp, normal)", text, kind));
  }
  return n;
}

std::vector<double> parse_factors(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("--factors '{}': {}", text, why));
  };
  const auto number = [&](const std::string& s) {
    const auto v = util::parse_number(s);
    if (!v || !(*v > 0) || !std::isfinite(*v)) throw bad(fmt::format("'{}' is not a positive number", s));
    return *v;
  };
  std::vector<double> out;
  if (const auto dots = text.find(".."); dots != std::string::npos) {
    const auto colon = text.find(':', dots);
    if (colon == std::string::npos) throw bad("a range is A..B:N, e.g. 0.125..16:16");
    const double a = number(text.substr(0, dots)), b = number(text.substr(dots + 2, colon - dots - 2));
    const auto n = util::parse_integer(text.substr(colon + 1));
    if (!n || *n < 2 || *n > 10000) throw bad("N must be a whole number from 2 to 10000");
    if (!(b > a)) throw bad("B must be above A");
    for (long i = 0; i < *n; ++i) out.push_back(a * std::pow(b / a, double(i) / double(*n - 1)));
    out.back() = b;
  } else {
    std::size_t start = 0;
    while (start <= text.size()) {
      const auto comma = std::min(text.find(',', start), text.size());
      out.push_back(number(text.substr(start, comma - start)));
      start = comma + 1;
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Sensitivity sensitivity(const Simulator& simulator, const std::vector<sim::Knob>& knobs,
                        const SensitivityOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  Sensitivity s;
  Runner run(simulator);
  s.baseline = run.time({});
  // Every sample and the slope's three runs of every parameter, spread over the threads.
  struct Job {
    std::size_t knob;
    double factor;
    double* out;
  };
  s.parameters.resize(knobs.size());
  std::vector<std::array<double, 3>> slope_times(knobs.size());
  std::vector<Job> jobs;
  for (std::size_t i = 0; i < knobs.size(); ++i) {
    auto& p = s.parameters[i];
    p.knob = knobs[i];
    for (double f : o.factors) p.points.push_back({f, f * p.knob.value, f == 1 ? s.baseline : 0});
    p.slope.step = slope_step(p.knob, o.step);
  }
  for (std::size_t i = 0; i < knobs.size(); ++i) {
    auto& p = s.parameters[i];
    for (auto& pt : p.points)
      if (pt.factor != 1) jobs.push_back({i, pt.factor, &pt.time});
    const double h = p.slope.step;
    jobs.push_back({i, 1 + h, &slope_times[i][0]});
    jobs.push_back({i, 1 + 2 * h, &slope_times[i][1]});
    jobs.push_back({i, 1 - h, &slope_times[i][2]});
  }
  parallel_for(jobs.size(), o.threads, [&](std::size_t j) {
    *jobs[j].out = run.time({knobs[jobs[j].knob].name, jobs[j].factor});
  });
  for (std::size_t i = 0; i < knobs.size(); ++i) {
    auto& sl = s.parameters[i].slope;
    const auto& t = slope_times[i];
    sl.right = (t[0] - s.baseline) / sl.step;
    sl.left = (s.baseline - t[2]) / sl.step;
    sl.per_unit = sl.right / s.parameters[i].knob.value;
    sl.share = s.baseline > 0 ? sl.right / s.baseline : 0;
    sl.linear = std::abs((t[1] - t[0]) - (t[0] - s.baseline)) <= 1e-9 * s.baseline;
  }
  // The tolerances, a parameter to a thread; each growth's search starts from the samples and
  // the runs of the smaller growths' searches.
  parallel_for(knobs.size(), o.threads, [&](std::size_t i) {
    auto& p = s.parameters[i];
    std::map<double, double> known = {{1.0, s.baseline}};
    for (const auto& pt : p.points) known[pt.factor] = pt.time;
    const auto time = [&](double f) { return run.time({p.knob.name, f}); };
    for (double g : o.growths) {
      const auto c = first_crossing(time, known, s.baseline * (1 + g), o.search);
      Tolerance t;
      t.growth = g;
      t.runs = c.runs;
      t.below = c.below;
      if (std::isfinite(c.factor)) {
        t.factor = c.factor, t.value = c.factor * p.knob.value, t.time = c.time;
        if (simulator.carriers) t.carriers = simulator.carriers({p.knob.name, t.factor});
      }
      p.tolerances.push_back(std::move(t));
    }
  });
  if (o.noise) {
    NoiseRuns n;
    n.distribution = o.noise->text;
    n.times.resize(static_cast<std::size_t>(o.seeds));
    parallel_for(n.times.size(), o.threads, [&](std::size_t i) {
      n.times[i] = run.time({"", 1, o.noise, static_cast<std::uint64_t>(i + 1)});
    });
    double sum = 0, sq = 0;
    for (double t : n.times) sum += t;
    n.mean = n.times.empty() ? 0 : sum / double(n.times.size());
    for (double t : n.times) sq += (t - n.mean) * (t - n.mean);
    n.sd = n.times.size() > 1 ? std::sqrt(sq / double(n.times.size() - 1)) : 0;
    n.min = n.times.empty() ? 0 : *std::min_element(n.times.begin(), n.times.end());
    n.max = n.times.empty() ? 0 : *std::max_element(n.times.begin(), n.times.end());
    s.noise = std::move(n);
  }
  s.search = o.search;
  s.simulations = run.runs();
  s.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return s;
}

}  // namespace augur::analyze
