#!/usr/bin/env bash
# Runs each conformance program plainly and under `augur run`, and compares what the program
# printed on stdout and its exit status. The shim must not change either. Where the shim gives
# the standard's answer and a library alone does not, the program's output under augur is
# compared with the standard's instead, kept beside it as PROGRAM.expected.
#
#   run.sh AUGUR MPIEXEC PROGRAM_DIR [-np N] [--timeout SECONDS] [PROGRAM...]
#
# PROGRAM_DIR holds the built programs (named as in programs.txt beside this script). Each runs
# with its process count from programs.txt unless -np is given. Prints "same" or "DIFFERS" per
# program, with a diff, and exits non-zero when any differs or times out, or when a run under augur
# has no prediction but for the programs programs.txt marks `unpredicted`. The runs' outputs are
# kept in $CONFORMANCE_OUT (default: a fresh temporary directory).
#
# A Fortran twin f_NAME must also print what NAME printed in its plain run, when NAME ran in the
# same invocation: one more "same"/"DIFFERS" line compares the two, with the MPI_ERROR field
# that ends a status line (" error=...") left out, since the twins print it only where the
# Fortran bindings define it (fortran/conf.f90, print_status); a field in programs.txt,
# unlike-c-under=open-mpi, leaves that comparison out under that library. A program the build
# could not make has a file NAME.skipped in PROGRAM_DIR saying why; it is reported and not run.
set -uo pipefail

usage() {
  echo "usage: $0 AUGUR MPIEXEC PROGRAM_DIR [-np N] [--timeout SECONDS] [PROGRAM...]" >&2
  exit 2
}
[[ $# -ge 3 ]] || usage
augur=$1 mpiexec=$2 program_dir=$3
shift 3
processes= timeout_seconds=${CONFORMANCE_TIMEOUT:-60} only=()
while [[ $# -gt 0 ]]; do
  case $1 in
    -np | -n | --np) processes=${2:?}; shift 2 ;;
    --timeout) timeout_seconds=${2:?}; shift 2 ;;
    -*) usage ;;
    *) only+=("$1"); shift ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
for name in "${only[@]}"; do
  grep -q "^$name " "$here/programs.txt" || { echo "$0: no program '$name' in programs.txt" >&2; exit 2; }
done
out=${CONFORMANCE_OUT:-$(mktemp -d -t augur-conformance.XXXXXX)}
mkdir -p "$out"

# The launcher's command line as augur builds it (src/cli/launcher.cpp): Open MPI needs
# --oversubscribe on a small machine and --allow-run-as-root as root; Hydra takes neither.
if "$mpiexec" --version 2>&1 | grep -q -e 'Open MPI' -e 'OpenRTE'; then
  library=open-mpi
  launcher_options=(--oversubscribe)
  [[ $(id -u) == 0 ]] && launcher_options+=(--allow-run-as-root)
else
  library=mpich
  launcher_options=()
fi

# `augur run` prints its report on stdout after the program has ended. With --json and
# --report the printed report is exactly the kept file's text, so it is cut off the end of
# stdout, leaving only what the program printed.
program_stdout() {
  local all=$1 report=$2 result=$3
  if [[ -s $report ]]; then
    local total report_size
    total=$(stat -c %s "$all")
    report_size=$(stat -c %s "$report")
    if ((total >= report_size)) && tail -c "$report_size" "$all" | cmp -s - "$report"; then
      head -c $((total - report_size)) "$all" >"$result"
      return
    fi
  fi
  cp "$all" "$result"
}

describe_status() {
  case $1 in
    124 | 137) echo "$1 (timed out)" ;;
    *) echo "$1" ;;
  esac
}

# Runs one program plainly and under augur, keeping both outputs and exit statuses in its folder.
run_both() {
  local name=$1 n=$2 seconds=$3 dir=$out/$1 status
  mkdir -p "$dir"
  rm -f "$dir"/*
  timeout -k 10 "$seconds" "$mpiexec" -np "$n" "${launcher_options[@]}" "$program_dir/$name" \
    </dev/null >"$dir/plain.stdout" 2>"$dir/plain.stderr"
  echo $? >"$dir/plain.status"
  timeout -k 10 "$seconds" "$augur" run --machine generic --mpirun "$mpiexec" -np "$n" --oversubscribe \
    --json --report "$dir/report.json" -- "$program_dir/$name" </dev/null >"$dir/augur.all" 2>"$dir/augur.stderr"
  status=$?
  program_stdout "$dir/augur.all" "$dir/report.json" "$dir/augur.stdout"
  echo "$status" >"$dir/augur.status"
}

# The programs to run: NAME PROCESSES OPTIONS, in programs.txt's order.
selected=()
while read -r name default_processes options; do
  [[ -z $name || $name == \#* ]] && continue
  if [[ ${#only[@]} -gt 0 && ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  selected+=("$name ${processes:-$default_processes} $options")
done <"$here/programs.txt"

# Only outputs and exit statuses are compared, never times, so programs run side by side
# (CONFORMANCE_JOBS at once, default one per processor): the suite's 36 programs took 135 s one
# after another, most of it launching.
jobs_at_once=${CONFORMANCE_JOBS:-$(nproc)}
running=0
# A program marked `large` in programs.txt moves gigabytes: it runs alone, with four times the
# time, since two of them side by side page through 8 GB on a host whose page faults can run at
# 0.4 GB/s (both timed out after 60 s there).
for line in "${selected[@]}"; do
  read -r name n options <<<"$line"
  [[ -f $program_dir/$name.skipped || ! -x $program_dir/$name ]] && continue
  if [[ " ${options:-} " == *" large "* ]]; then
    wait
    running=0
    run_both "$name" "$n" $((4 * timeout_seconds))
    continue
  fi
  if ((running >= jobs_at_once)); then
    wait -n
    running=$((running - 1))
  fi
  run_both "$name" "$n" "$timeout_seconds" &
  running=$((running + 1))
done
wait

failures=0
declare -A ran # the programs run in this invocation
for line in "${selected[@]}"; do
  read -r name n options <<<"$line"
  options=${options:-}
  if [[ -f $program_dir/$name.skipped ]]; then
    echo "skipped $name: $(head -n 1 "$program_dir/$name.skipped")"
    continue
  fi
  if [[ ! -x $program_dir/$name ]]; then
    echo "DIFFERS $name: no program at $program_dir/$name"
    failures=$((failures + 1))
    continue
  fi
  dir=$out/$name
  plain_status=$(<"$dir/plain.status") augur_status=$(<"$dir/augur.status")
  ran[$name]=1

  reference=$dir/plain.stdout reference_label=plain note=
  if [[ -f $here/$name.expected ]]; then
    reference=$here/$name.expected reference_label="the standard ($name.expected)"
    cmp -s "$reference" "$dir/plain.stdout" || note="; the library alone differs from the standard"
  fi
  if [[ $plain_status == "$augur_status" ]] && cmp -s "$reference" "$dir/augur.stdout" &&
    [[ $plain_status != 124 && $plain_status != 137 ]]; then
    echo "same    $name (-np $n, exit $plain_status$note)"
  else
    failures=$((failures + 1))
    echo "DIFFERS $name (-np $n): exit plain $(describe_status $plain_status), under augur $(describe_status $augur_status)"
    diff -u --label "$reference_label" --label "under augur" "$reference" "$dir/augur.stdout" | sed 's/^/    /'
    if [[ -s $dir/augur.stderr ]]; then
      echo "    -- augur's stderr, last lines:"
      tail -n 12 "$dir/augur.stderr" | sed 's/^/    | /'
    fi
    if [[ $plain_status != 0 && -s $dir/plain.stderr ]]; then
      echo "    -- plain run's stderr, last lines:"
      tail -n 12 "$dir/plain.stderr" | sed 's/^/    | /'
    fi
  fi

  # A program the shim can predict is predicted: its report has a prediction.
  if [[ " $options " != *" unpredicted "* ]] && ! grep -Eq '^  "predicted_seconds": [-0-9]' "$dir/report.json" 2>/dev/null; then
    failures=$((failures + 1))
    echo "UNPREDICTED $name: the report under augur has no prediction"
    grep -sh '"not_predicted"' "$dir/report.json" | sed 's/^ */    /'
  fi

  # The twin against its C program, both run plainly.
  twin_of=${name#f_}
  if [[ $name == f_* && " $options " == *" unlike-c-under=$library "* ]]; then
    echo "unlike  $name and $twin_of (C) under $library, not compared (programs.txt)"
  elif [[ $name == f_* && -n ${ran[$twin_of]:-} ]]; then
    sed -E 's/ error=[^ ]*$//' "$out/$twin_of/plain.stdout" >"$dir/c.compared"
    sed -E 's/ error=[^ ]*$//' "$dir/plain.stdout" >"$dir/fortran.compared"
    if cmp -s "$dir/c.compared" "$dir/fortran.compared"; then
      echo "same    $name as $twin_of (C)"
    else
      failures=$((failures + 1))
      echo "DIFFERS $name from $twin_of (C)"
      diff -u --label "$twin_of (C)" --label "$name" "$dir/c.compared" "$dir/fortran.compared" | sed 's/^/    /'
    fi
  fi
done

echo "outputs in $out"
if ((failures > 0)); then
  echo "$failures program(s) differ"
  exit 1
fi
echo "all programs behave the same under augur"
