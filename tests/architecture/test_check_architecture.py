"""scripts/check-architecture fails on each way code and table can part: on small trees made
here, so a checker that passes the real tree is known to be able to fail."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check-architecture"

TABLE = """# Architecture

| folder | owns | depends on |
| --- | --- | --- |
| `src/base` | the vocabulary | fmt |
| `src/low` | a library | base (`units.hpp` only) |
| `src/high/room` | a part | low, base |
| `tests/unit` | tests | |
"""

TREE = {
    "src/base/units.hpp": "#pragma once\n#include <string>\n",
    "src/base/other.hpp": "#pragma once\n",
    "src/low/low.cpp": '#include "low/low.hpp"\n#include "base/units.hpp"\n',
    "src/low/low.hpp": "#pragma once\n",
    "src/high/room/room.cpp": '#include "low/low.hpp"\n#include "base/other.hpp"\n#include "room.hpp"\n',
    "src/high/room/room.hpp": "#pragma once\n",
}


class CheckArchitecture(unittest.TestCase):
    def run_on(self, table=TABLE, changes=None):
        with tempfile.TemporaryDirectory() as repo:
            files = dict(TREE, **(changes or {}))
            files["docs/architecture.md"] = table
            for name, text in files.items():
                path = Path(repo) / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
            run = subprocess.run([sys.executable, str(SCRIPT), repo], capture_output=True, text=True)
            return run.returncode, run.stdout

    def test_a_tree_its_table_describes_passes(self):
        status, out = self.run_on()
        self.assertEqual(status, 0, out)

    def test_an_include_the_table_does_not_name_fails(self):
        status, out = self.run_on(changes={"src/low/low.cpp": '#include "high/room/room.hpp"\n#include "base/units.hpp"\n'})
        self.assertEqual(status, 1)
        self.assertIn("src/low includes src/high/room (room.hpp), but its row", out)
        self.assertIn("code has a cycle between folders: high/room, low", out)
        self.assertIn("code has a cycle between top-level folders: high, low", out)

    def test_a_header_outside_the_ones_named_fails(self):
        status, out = self.run_on(changes={"src/low/low.cpp": '#include "base/other.hpp"\n#include "base/units.hpp"\n'})
        self.assertEqual(status, 1)
        self.assertIn("src/low/low.cpp:1: src/low may include only units.hpp of src/base, not other.hpp", out)

    def test_an_arrow_the_code_no_longer_has_fails(self):
        status, out = self.run_on(changes={"src/high/room/room.cpp": '#include "low/low.hpp"\n'})
        self.assertEqual(status, 1)
        self.assertIn("src/high/room is said to depend on base, but includes nothing from it", out)

    def test_a_cycle_in_the_table_fails(self):
        status, out = self.run_on(table=TABLE.replace("| the vocabulary | fmt |", "| the vocabulary | low |"))
        self.assertEqual(status, 1)
        self.assertIn("the table has a cycle between folders: base, low", out)

    def test_a_row_below_one_that_depends_on_it_fails(self):
        rows = TABLE.splitlines()
        base, low = rows[4], rows[5]
        status, out = self.run_on(table=TABLE.replace(base + "\n" + low, low + "\n" + base))
        self.assertEqual(status, 1)
        self.assertIn("src/low depends on base, whose row is below it: an arrow up", out)

    def test_a_folder_without_a_row_fails(self):
        status, out = self.run_on(changes={"src/extra/x.cpp": '#include "base/units.hpp"\n'})
        self.assertEqual(status, 1)
        self.assertIn("src/extra holds sources but has no row", out)

    def test_a_row_naming_a_parent_instead_of_its_folders_fails(self):
        status, out = self.run_on(table=TABLE + "| `src/top` | a user | high |\n",
                                  changes={"src/top/top.cpp": '#include "high/room/room.hpp"\n'})
        self.assertEqual(status, 1)
        self.assertIn("names high, which holds no sources of its own", out)


if __name__ == "__main__":
    unittest.main()
