"""How much of the processors' time the hypervisor gave to other guests (the `steal` column of
/proc/stat). A measured run takes wall time that includes it; augur's prediction counts the
program's CPU time, which does not, so a table measured while steal was high reads as
under-predicted. The suite reports the steal share of its measured runs beside the table."""
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
    """The steal share of each interval between start() and stop()."""

    def __init__(self):
        self.shares = []
        self._at = None

    def start(self):
        self._at = ticks()

    def stop(self):
        end = ticks()
        if self._at is None or end is None or end[1] <= self._at[1]:
            return
        self.shares.append((end[0] - self._at[0]) / (end[1] - self._at[1]))

    def note(self):
        """A sentence for the table, or None when nothing was measured."""
        if not self.shares:
            return None
        return (f"Processor time taken by the hypervisor during the measured runs (`steal` in /proc/stat): "
                f"median {100 * statistics.median(self.shares):.1f}%, most {100 * max(self.shares):.1f}% "
                f"over {len(self.shares)} runs.")
