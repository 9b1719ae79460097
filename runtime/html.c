/* html.c -- the report as one self-contained HTML page
   (MEMPROF=html=PATH): runtime/report.html, whose script draws the stat
   record, the heap's timeline, flame graphs of allocated and live bytes
   and the tables, with the JSON report (json.c) in place of its
   @MEMPROF_JSON@ marker (output.c puts it there).  The build embeds the template
   (scripts/embed.sh), so the page needs no file and no network.  */

#include <string.h>
#include "internal.h"
#include "output.h"
#include "html-template.h"

#define MARKER "@MEMPROF_JSON@"

const char *
mp_html_head (FILE *out)
{
  const char *at = strstr (mp_html_template, MARKER);
  if (at == NULL)               /* not so: the build checks it is there */
    {
      fputs (mp_html_template, out);
      return "";
    }
  fwrite (mp_html_template, 1, (size_t) (at - mp_html_template), out);
  return at + strlen (MARKER);
}
