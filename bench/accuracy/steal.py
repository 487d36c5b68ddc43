"""How much of the processors' time the hypervisor gave to other guests (the `steal` column of
/proc/stat). A measured run takes wall time that includes it; augur's prediction counts the
program's CPU time, which does not, so a table measured while steal was high reads as
under-predicted. The suite measures a run again when the hypervisor took more than a set share
during it (keeping the calmest of a few tries), and reports the steal share of the runs it kept
beside the table."""
import statistics
from pathlib import Path

STAT = Path("/proc/stat")


def ticks():
    """(steal, total) clock ticks of all processors since boot, or None where /proc/stat has no
    steal column (not Linux, or a kernel without it)."""
    try:
        fields = STAT.read_text().splitlines()[0].split()
    except OSError:
        return None
    if fields[0] != "cpu" or len(fields) < 9:
        return None
    values = [int(v) for v in fields[1:]]
    # guest time is already counted in user time (proc(5)), so only the first eight add up.
    return values[7], sum(values[:8])


class Meter:
    """The steal share of each kept measurement, and how many were measured again."""

    def __init__(self, most=None, tries=3):
        self.most = most      # share above which a run is measured again; None: never
        self.tries = tries
        self.shares = []
        self.repeated = 0

    def calmest(self, measure):
        """Runs measure() until the steal share during it is at most `most`, at most `tries` times,
        and returns the result of the calmest try."""
        best = None
        for attempt in range(self.tries):
            at = ticks()
            result = measure()
            share = share_between(at, ticks())
            if best is None or (share is not None and (best[1] is None or share < best[1])):
                best = (result, share)
            if self.most is None or share is None or share <= self.most or attempt + 1 == self.tries:
                break
            self.repeated += 1
        if best[1] is not None:
            self.shares.append(best[1])
        return best[0]

    def note(self):
        """A sentence for the table, or None when nothing was measured."""
        if not self.shares:
            return None
        text = (f"Processor time taken by the hypervisor during the measured runs (`steal` in /proc/stat): "
                f"median {100 * statistics.median(self.shares):.1f}%, most {100 * max(self.shares):.1f}% "
                f"over {len(self.shares)} runs.")
        if self.most is not None:
            text += (f" A run during which it exceeded {100 * self.most:.0f}% was measured again, up to "
                     f"{self.tries} tries, keeping the calmest: {self.repeated} repeats.")
        return text


def share_between(start, end):
    if start is None or end is None or end[1] <= start[1]:
        return None
    return (end[0] - start[0]) / (end[1] - start[1])
