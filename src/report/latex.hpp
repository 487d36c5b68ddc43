#pragma once
// Text made safe for pdflatex with the base packages only (OT1 fonts, no Unicode input): TeX's
// special characters escaped and the few non-ASCII characters augur writes (µ ± ≤ · χ² …) turned
// into their LaTeX commands; any other non-ASCII character becomes '?'.
#include <string>
#include <string_view>

namespace augur::report {

std::string latex_escape(std::string_view text);

// `text` in the typewriter font, whose glyphs are ASCII's: an equation reads (and copies out of
// the PDF) as written, p^2 with a caret rather than a circumflex accent.
std::string latex_code(std::string_view text);

}  // namespace augur::report
