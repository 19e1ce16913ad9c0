/* fathom: wolfCrypt's own self-test (wolfcrypt/test/test.c, wolfcrypt_test()) as an operation
 * whose known-answer phase is the whole test suite; library.toml names it as the library's gate
 * (gate_operations), so the host keeps no wolfSSL timing from an image where it did not pass
 * (docs/PROTOCOL.md, "Gate operations").
 *
 * wolfcrypt_selftest:
 *   KAT: runs wolfcrypt_test(NULL) once. test.c reports each algorithm test it passed with a
 *     line "<name> test passed!"; those lines arrive through XPRINTF (fathom_wolfssl_settings.h)
 *     in fathom_wolfcrypt_test_printf below and each becomes one KAT vector named after the
 *     test ("sha-256", "hmac-sha256", "ecc", ...). A final vector "wolfcrypt_test" passes only if
 *     wolfcrypt_test returned 0 (a failing test returns at once with its error code, printed as
 *     free text). Which tests run is set by the library settings: only the algorithms built.
 *   run: does nothing and returns 0: the self-test is not a workload, and repeating it for
 *     every timed run would cost its full cycle count each time. Its reported cycles are the
 *     probe's residue (a few cycles) and mean nothing. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/wc_port.h>

#include "fathom_harness.h"
#include "fathom_protocol.h"
#include "wolfcrypt/test/test.h"

/* Set while wolfcrypt_test runs inside the KAT, so its "passed" lines become vectors. */
static int selftest_in_kat;

/* Writes one line of free text (docs/PROTOCOL.md: any line not starting with "@F ") to the
 * console, ending it with a newline so a following record starts on its own line. */
static void selftest_log(const char *text, size_t len) {
  static const char kPrefix[] = "wolfcrypt: ";
  char line[200];
  size_t n = 0;
  for (size_t i = 0; kPrefix[i] != '\0'; ++i) line[n++] = kPrefix[i];
  for (size_t i = 0; i < len && n + 1 < sizeof line; ++i)
    if (text[i] != '\n') line[n++] = text[i];
  line[n++] = '\n';
  fathom_console_write(line, n);
}

/* test.c's printf (XPRINTF). "<name> test passed!" during the KAT becomes a passing vector
 * "<name>" (lower case, trailing blanks dropped); everything else goes to the console as free
 * text. Returns the formatted length, as printf does. */
int fathom_wolfcrypt_test_printf(const char *format, ...) {
  char text[160];
  va_list args;
  va_start(args, format);
  const int n = vsnprintf(text, sizeof text, format, args);
  va_end(args);
  if (n < 0) return n;
  size_t len = strlen(text);
  static const char kPassed[] = "test passed!\n";
  const size_t passed_len = sizeof kPassed - 1;
  if (selftest_in_kat && len > passed_len && strcmp(text + len - passed_len, kPassed) == 0) {
    size_t name_len = len - passed_len;
    while (name_len > 0 && (text[name_len - 1] == ' ' || text[name_len - 1] == '\t')) --name_len;
    text[name_len] = '\0';
    for (size_t i = 0; i < name_len; ++i)
      if (text[i] >= 'A' && text[i] <= 'Z') text[i] = (char)(text[i] - 'A' + 'a');
    fathom_kat_expect(name_len > 0 ? text : "unnamed", 1);
    return n;
  }
  if (len > 0 && !(len == 1 && text[0] == '\n')) selftest_log(text, len);
  return n;
}

static int selftest_setup(void) { return wolfCrypt_Init(); }

static void selftest_kat(void) {
  selftest_in_kat = 1;
  const wc_test_ret_t ret = wolfcrypt_test(NULL);
  selftest_in_kat = 0;
  fathom_kat_expect("wolfcrypt_test", ret == 0);
}

static int selftest_run(void) { return 0; }

static const fathom_op op_wolfcrypt_selftest = {
    .name = "wolfcrypt_selftest",
    .setup = selftest_setup,
    .kat = selftest_kat,
    .run = selftest_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_wolfcrypt_selftest);
