// A small shim over libpq, PostgreSQL's own C client, loaded at run time with dlopen:
// building and testing the package needs neither libpq's headers nor its library; only a
// store opened on a postgresql:// address needs libpq.so.5 (Debian: libpq5).
#ifndef COMPASS_LIBPQ_H
#define COMPASS_LIBPQ_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Loads libpq.so.5 once. Returns 1 when it is loaded, 0 with a reason in `error`.
int compass_pq_load(char *error, size_t size);

void *compass_pq_connect(const char *conninfo);
/// 1 when the connection is up.
int compass_pq_ok(const void *conn);
const char *compass_pq_error_message(const void *conn);
void compass_pq_finish(void *conn);

/// PQexecParams with text parameters (lengths and formats given per parameter: 1 = binary).
void *compass_pq_exec(void *conn, const char *sql, int count, const char *const *values, const int *lengths,
                      const int *formats, int binary_results);
/// 1 for PGRES_COMMAND_OK or PGRES_TUPLES_OK.
int compass_pq_result_ok(const void *result);
const char *compass_pq_result_message(const void *result);
/// The SQLSTATE of a failed result, or NULL.
const char *compass_pq_sqlstate(const void *result);
/// The constraint a failed result violated (PG_DIAG_CONSTRAINT_NAME), or NULL.
const char *compass_pq_constraint(const void *result);
int compass_pq_rows(const void *result);
int compass_pq_columns(const void *result);
int compass_pq_is_null(const void *result, int row, int column);
const char *compass_pq_value(const void *result, int row, int column);
int compass_pq_length(const void *result, int row, int column);
void compass_pq_clear(void *result);

/// COPY … FROM STDIN of `length` bytes of `data` (text format): 1 when the server took them
/// all, else 0 with the server's message in `error`, and its SQLSTATE and the constraint it
/// violated when it gave them (NULL otherwise; each valid until the next call on this thread).
int compass_pq_copy_in(void *conn, const char *sql, const char *data, long long length, const char **error,
                       const char **sqlstate, const char **constraint);

/// LISTEN support: the socket to wait on, and whether a notification arrived.
int compass_pq_socket(const void *conn);
int compass_pq_consume_input(void *conn);
int compass_pq_take_notification(void *conn);

#ifdef __cplusplus
}
#endif

#endif
