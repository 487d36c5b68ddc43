#pragma once
// The node kernels: what one processor of the machine computes, for the compute section of the
// model (docs/node-model.md, "Node kernels"). They use no MPI, so the bench runs them on one rank
// and the unit tests run them directly.
//
// They are written here rather than taken from elsewhere because nothing available measures them
// inside a running process: STREAM, lmbench and likwid-bench are separate programs with their own
// output formats, and hwloc or sysfs name the cache sizes without timing them. Each kernel is a
// short loop, and owning it keeps the compute step the same as the one the examples use.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "node/timing.hpp"

namespace augur::node {

// One compute step, as examples/farm.c's task loop makes one: x = x·a + c, then x ^= x >> 29, on
// 64-bit integers. Returns x after n steps.
std::uint64_t compute_steps(std::uint64_t x, std::uint64_t n);

// Seconds of one compute step (the model's compute.seconds_per_step).
double seconds_per_step(const Timing& timing);

// Floating-point operations per second of independent multiply-adds, 2 operations each.
double flop_rate(const Timing& timing);

// Bytes per second of the STREAM triad a[i] = b[i] + s·c[i] over three arrays of `array_bytes`
// each, counted as STREAM counts it: 24 bytes per element (two reads, one write).
double memory_bandwidth(std::size_t array_bytes, const Timing& timing);

// Seconds of one load in a chain of dependent loads that visits every cache line of a
// `bytes`-sized working set in a random cycle, so neither the prefetcher nor the order helps.
double seconds_per_access(std::size_t bytes, std::size_t line_bytes, const Timing& timing);

// seconds_per_access for working sets smallest, 2·smallest, … up to largest.
std::vector<model::CacheSweepPoint> cache_sweep(std::size_t smallest, std::size_t largest, std::size_t line_bytes,
                                                const Timing& timing);

}  // namespace augur::node
