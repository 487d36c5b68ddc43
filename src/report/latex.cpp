#include "report/latex.hpp"

#include <array>
#include <utility>

namespace augur::report {
namespace {

constexpr auto kUnicode = std::to_array<std::pair<std::string_view, std::string_view>>({
    {"µ", "$\\mu$"}, {"μ", "$\\mu$"}, {"±", "$\\pm$"}, {"≤", "$\\le$"}, {"≥", "$\\ge$"}, {"·", "$\\cdot$"},
    {"×", "$\\times$"}, {"−", "$-$"}, {"–", "--"}, {"—", "---"}, {"χ", "$\\chi$"}, {"²", "$^2$"}, {"³", "$^3$"},
    {"⌊", "$\\lfloor$"}, {"⌋", "$\\rfloor$"}, {"√", "$\\surd$"}, {"…", "\\ldots{}"}, {"“", "``"}, {"”", "''"},
    {"‘", "`"}, {"’", "'"}, {"≈", "$\\approx$"}, {"→", "$\\rightarrow$"}, {"∞", "$\\infty$"},
});

std::string_view ascii(char c) {
  switch (c) {
    case '\\': return "\\textbackslash{}";
    case '{': return "\\{";
    case '}': return "\\}";
    case '$': return "\\$";
    case '&': return "\\&";
    case '#': return "\\#";
    case '%': return "\\%";
    case '_': return "\\_";
    case '^': return "\\textasciicircum{}";
    case '~': return "\\textasciitilde{}";
    // OT1 fonts print other glyphs for these three in text.
    case '<': return "\\textless{}";
    case '>': return "\\textgreater{}";
    case '|': return "\\textbar{}";
    default: return {};
  }
}

// Length of the UTF-8 sequence that starts with `lead` (1 for a stray continuation byte).
std::size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

std::string_view ascii_in_typewriter(char c) {
  switch (c) {
    case '\\': return "{\\char92}";
    case '{': return "{\\char123}";
    case '}': return "{\\char125}";
    case '^': return "{\\char94}";
    case '~': return "{\\char126}";
    case '_': return "{\\char95}";
    case '<': return "<";
    case '>': return ">";
    case '|': return "|";
    default: return ascii(c);
  }
}

std::string escape(std::string_view text, std::string_view (*special)(char)) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      auto replacement = special(text[i]);
      if (!replacement.empty()) out += replacement;
      else if (c >= 0x20 || text[i] == '\n' || text[i] == '\t') out += text[i];
      ++i;
      continue;
    }
    const auto sequence = text.substr(i, sequence_length(c));
    std::string_view replacement = "?";
    for (const auto& [from, to] : kUnicode)
      if (sequence == from) replacement = to;
    out += replacement;
    i += sequence.size();
  }
  return out;
}

}  // namespace

std::string latex_code(std::string_view text) { return "\\texttt{" + escape(text, ascii_in_typewriter) + "}"; }

std::string latex_escape(std::string_view text) { return escape(text, ascii); }

}  // namespace augur::report
