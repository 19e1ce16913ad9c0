#include "profile/taint_sites.h"

#include "sim/instruction_decoder.h"

namespace fathom::profile {

std::vector<TaintSite> name_taint_sites(const std::vector<TaintFinding>& findings,
                                        const elf::ElfImage& image, elf::DebugInfo* debug) {
  sim::InstructionDecoder decoder;
  std::vector<TaintSite> out;
  out.reserve(findings.size());
  for (const auto& f : findings) {
    TaintSite site;
    site.finding = f;
    if (const elf::Symbol* s = image.function_at(f.pc)) {
      site.function = s->name;
      site.offset = f.pc - s->address;
    }
    if (auto bytes = image.read(f.pc, 4)) site.instruction = decoder.text(f.pc, *bytes);
    else if (auto half = image.read(f.pc, 2)) site.instruction = decoder.text(f.pc, *half);
    if (debug != nullptr) {
      const elf::SourcePosition pos = debug->line_at(f.pc);
      if (pos.known()) {
        site.file = pos.file;
        site.line = pos.line;
      }
    }
    out.push_back(std::move(site));
  }
  return out;
}

}  // namespace fathom::profile
