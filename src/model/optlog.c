/* optlog.c: the pure accessors of the opt_log.md model (model/optlog.h);
 * the reader is io/optlog.c. */
#include "model/optlog.h"

#include <stddef.h>

const char *optlog_stop_name(enum optlog_stop s)
{
	static const char *const names[] = {
		[OPTLOG_STOP_NONE] = NULL,		 [OPTLOG_STOP_PLATEAU] = "plateau",
		[OPTLOG_STOP_BUDGET] = "budget_exhausted", [OPTLOG_STOP_SUCCESS] = "success",
		[OPTLOG_STOP_BLOCKED] = "blocked",	 [OPTLOG_STOP_USER] = "user_stop",
		[OPTLOG_STOP_OTHER] = "other",
	};
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : NULL;
}
