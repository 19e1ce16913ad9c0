// Unicorn's store path without its dead page collection.
//
// Unicorn 2.0.1 does not track dirty memory, so every RAM page keeps TLB_NOTDIRTY and every
// guest store to RAM takes QEMU's notdirty path:
//     pages = page_collection_lock(uc, ram_addr, ram_addr + size);   // g_malloc, g_tree_new_full
//     tb_invalidate_phys_page_fast(uc, pages, ram_addr, size, retaddr);
//     page_collection_unlock(pages);                                  // g_tree_destroy, g_free
// In Debian bookworm's build (libunicorn2 2.0.1.post1-1+b1, build ID below), read from its
// machine code: the collection returned by page_collection_lock_arm reaches nothing but
// page_collection_unlock_arm. All five callers (the store helpers, probe_access, the atomic
// lookup, tb_invalidate_phys_range, tb_invalidate_phys_page_range) pass it only to the unlock;
// tb_invalidate_phys_page_fast_arm takes it as an argument and overwrites the register on
// entry; the invalidation itself (tb_invalidate_phys_page_range__locked) has no such parameter.
// The page locks it would hold are for multi-threaded TCG, which Unicorn does not run. So the
// collection is pure cost: malloc, free and tree work on every store (about 15 % of a
// measurement's host time). The invalidation of translated code still runs unchanged.
//
// Unicorn calls both functions through its PLT, so the definitions below, exported from the
// executable (src/CMakeLists.txt), take their place. With the verified build they hand out one
// static token and release nothing; with any other build they forward to Unicorn's own.
#include "sim/unicorn_store_shortcut.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fathom::sim {
namespace {

// readelf -n /usr/lib/x86_64-linux-gnu/libunicorn.so.2 (Debian 12, libunicorn2 2.0.1.post1-1+b1)
constexpr const char* kVerifiedBuildId = "f439d3d09a3fefbcc7d4014bd3f67c12d55957e6";

// The NT_GNU_BUILD_ID note of a loaded object, from its PT_NOTE segments (bounds-checked).
std::string build_id_of(const dl_phdr_info& info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info.dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const unsigned char*>(info.dlpi_addr + ph.p_vaddr);
    size_t left = ph.p_memsz;
    while (left >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) note;
      std::memcpy(&note, p, sizeof note);
      const size_t name_bytes = (size_t{note.n_namesz} + 3) & ~size_t{3};
      const size_t desc_bytes = (size_t{note.n_descsz} + 3) & ~size_t{3};
      if (name_bytes > left - sizeof note || desc_bytes > left - sizeof note - name_bytes) break;
      const unsigned char* name = p + sizeof note;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        static constexpr char kHex[] = "0123456789abcdef";
        std::string id;
        for (size_t b = 0; b < note.n_descsz; ++b) {
          const unsigned char byte = name[name_bytes + b];
          id += kHex[byte >> 4];
          id += kHex[byte & 15];
        }
        return id;
      }
      p += sizeof note + name_bytes + desc_bytes;
      left -= sizeof note + name_bytes + desc_bytes;
    }
  }
  return {};
}

std::string find_unicorn_build_id() {
  std::string id;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) -> int {
        if (info->dlpi_name == nullptr || std::strstr(info->dlpi_name, "libunicorn.so") == nullptr)
          return 0;
        *static_cast<std::string*>(out) = build_id_of(*info);
        return 1;
      },
      &id);
  return id;
}

// Decided once, before main: libunicorn is loaded with the executable.
const bool g_shortcut = unicorn_build_id() == kVerifiedBuildId;

char g_token;  // what page_collection_lock_arm hands out under the shortcut

template <class Function>
Function unicorn_own(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (f == nullptr) {
    std::fprintf(stderr, "fathom: Unicorn's %s was not found (%s)\n", name, dlerror());
    std::abort();
  }
  return reinterpret_cast<Function>(f);
}

}  // namespace

const std::string& unicorn_build_id() {
  static const std::string id = find_unicorn_build_id();
  return id;
}

bool unicorn_store_shortcut_active() { return g_shortcut; }

}  // namespace fathom::sim

// Unicorn's signatures: struct page_collection *page_collection_lock(struct uc_struct *,
// tb_page_addr_t start, tb_page_addr_t end); void page_collection_unlock(struct
// page_collection *). tb_page_addr_t is the host's uintptr_t.
extern "C" __attribute__((visibility("default"))) void* page_collection_lock_arm(void* uc,
                                                                                  uintptr_t start,
                                                                                  uintptr_t end) {
  if (fathom::sim::g_shortcut) return &fathom::sim::g_token;
  using Lock = void* (*)(void*, uintptr_t, uintptr_t);
  static const Lock own = fathom::sim::unicorn_own<Lock>("page_collection_lock_arm");
  return own(uc, start, end);
}

extern "C" __attribute__((visibility("default"))) void page_collection_unlock_arm(void* pages) {
  if (fathom::sim::g_shortcut) return;
  using Unlock = void (*)(void*);
  static const Unlock own = fathom::sim::unicorn_own<Unlock>("page_collection_unlock_arm");
  own(pages);
}
