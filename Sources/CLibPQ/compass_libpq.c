#include "compass_libpq.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libpq's entry points, as its header declares them (the types are opaque here).
typedef void *(*connectdb_f)(const char *);
typedef int (*status_f)(const void *);
typedef char *(*error_message_f)(const void *);
typedef void (*finish_f)(void *);
typedef void *(*exec_params_f)(void *, const char *, int, const unsigned int *, const char *const *, const int *, const int *, int);
typedef int (*result_status_f)(const void *);
typedef char *(*result_error_message_f)(const void *);
typedef char *(*result_error_field_f)(const void *, int);
typedef int (*ntuples_f)(const void *);
typedef int (*nfields_f)(const void *);
typedef int (*getisnull_f)(const void *, int, int);
typedef char *(*getvalue_f)(const void *, int, int);
typedef int (*getlength_f)(const void *, int, int);
typedef void (*clear_f)(void *);
typedef int (*socket_f)(const void *);
typedef int (*consume_input_f)(void *);
typedef void *(*notifies_f)(void *);
typedef void (*freemem_f)(void *);
typedef int (*put_copy_data_f)(void *, const char *, int);
typedef int (*put_copy_end_f)(void *, const char *);
typedef void *(*get_result_f)(void *);

static struct {
    connectdb_f connectdb;
    status_f status;
    error_message_f error_message;
    finish_f finish;
    exec_params_f exec_params;
    result_status_f result_status;
    result_error_message_f result_error_message;
    result_error_field_f result_error_field;
    ntuples_f ntuples;
    nfields_f nfields;
    getisnull_f getisnull;
    getvalue_f getvalue;
    getlength_f getlength;
    clear_f clear;
    socket_f socket;
    consume_input_f consume_input;
    notifies_f notifies;
    freemem_f freemem;
    put_copy_data_f put_copy_data;
    put_copy_end_f put_copy_end;
    get_result_f get_result;
} pq;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void load(void) {
    void *lib = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libpq.5.dylib", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "libpq.so.5 not found");
        return;
    }
#define LOAD(field, name)                                                                    \
    do {                                                                                     \
        *(void **)(&pq.field) = dlsym(lib, name);                                            \
        if (!pq.field) {                                                                     \
            snprintf(load_error, sizeof load_error, "libpq.so.5 has no %s", name);           \
            return;                                                                          \
        }                                                                                    \
    } while (0)
    LOAD(connectdb, "PQconnectdb");
    LOAD(status, "PQstatus");
    LOAD(error_message, "PQerrorMessage");
    LOAD(finish, "PQfinish");
    LOAD(exec_params, "PQexecParams");
    LOAD(result_status, "PQresultStatus");
    LOAD(result_error_message, "PQresultErrorMessage");
    LOAD(result_error_field, "PQresultErrorField");
    LOAD(ntuples, "PQntuples");
    LOAD(nfields, "PQnfields");
    LOAD(getisnull, "PQgetisnull");
    LOAD(getvalue, "PQgetvalue");
    LOAD(getlength, "PQgetlength");
    LOAD(clear, "PQclear");
    LOAD(socket, "PQsocket");
    LOAD(consume_input, "PQconsumeInput");
    LOAD(notifies, "PQnotifies");
    LOAD(freemem, "PQfreemem");
    LOAD(put_copy_data, "PQputCopyData");
    LOAD(put_copy_end, "PQputCopyEnd");
    LOAD(get_result, "PQgetResult");
#undef LOAD
    loaded = 1;
}

int compass_pq_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (!loaded && error && size > 0) snprintf(error, size, "%s", load_error);
    return loaded;
}

void *compass_pq_connect(const char *conninfo) { return pq.connectdb(conninfo); }
int compass_pq_ok(const void *conn) { return conn && pq.status(conn) == 0; /* CONNECTION_OK */ }
const char *compass_pq_error_message(const void *conn) { return conn ? pq.error_message(conn) : "out of memory"; }
void compass_pq_finish(void *conn) { if (conn) pq.finish(conn); }

void *compass_pq_exec(void *conn, const char *sql, int count, const char *const *values, const int *lengths,
                      const int *formats, int binary_results) {
    return pq.exec_params(conn, sql, count, NULL, values, lengths, formats, binary_results);
}

int compass_pq_result_ok(const void *result) {
    if (!result) return 0;
    int status = pq.result_status(result);
    return status == 1 /* PGRES_COMMAND_OK */ || status == 2 /* PGRES_TUPLES_OK */;
}
const char *compass_pq_result_message(const void *result) { return result ? pq.result_error_message(result) : "no result"; }
const char *compass_pq_sqlstate(const void *result) { return result ? pq.result_error_field(result, 'C') : NULL; }
const char *compass_pq_constraint(const void *result) { return result ? pq.result_error_field(result, 'n') : NULL; }
int compass_pq_rows(const void *result) { return pq.ntuples(result); }
int compass_pq_columns(const void *result) { return pq.nfields(result); }
int compass_pq_is_null(const void *result, int row, int column) { return pq.getisnull(result, row, column); }
const char *compass_pq_value(const void *result, int row, int column) { return pq.getvalue(result, row, column); }
int compass_pq_length(const void *result, int row, int column) { return pq.getlength(result, row, column); }
void compass_pq_clear(void *result) { if (result) pq.clear(result); }

int compass_pq_socket(const void *conn) { return pq.socket(conn); }
int compass_pq_consume_input(void *conn) { return pq.consume_input(conn); }
int compass_pq_take_notification(void *conn) {
    void *n = pq.notifies(conn);
    if (!n) return 0;
    pq.freemem(n);
    return 1;
}

int compass_pq_copy_in(void *conn, const char *sql, const char *data, long long length, const char **error,
                       const char **sqlstate, const char **constraint) {
    /* The server's message, SQLSTATE and constraint, copied out of its result. */
    static __thread char message[1024], state[8], violated[128];
    *error = NULL;
    *sqlstate = NULL;
    *constraint = NULL;
    void *started = pq.exec_params(conn, sql, 0, NULL, NULL, NULL, NULL, 0);
    if (!started || pq.result_status(started) != 4 /* PGRES_COPY_IN */) {
        const char *why = started ? pq.result_error_message(started) : pq.error_message(conn);
        snprintf(message, sizeof message, "%s", why ? why : "COPY did not start");
        *error = message;
        if (started) pq.clear(started);
        return 0;
    }
    pq.clear(started);
    long long sent = 0;
    int ok = 1;
    while (sent < length && ok) {
        int chunk = (int)((length - sent) > (1 << 20) ? (1 << 20) : (length - sent));
        if (pq.put_copy_data(conn, data + sent, chunk) != 1) ok = 0;
        sent += chunk;
    }
    if (pq.put_copy_end(conn, ok ? NULL : "the client stopped the copy") != 1) ok = 0;
    void *result;
    while ((result = pq.get_result(conn)) != NULL) {
        if (pq.result_status(result) != 1 /* PGRES_COMMAND_OK */) {
            snprintf(message, sizeof message, "%s", pq.result_error_message(result));
            *error = message;
            const char *code = pq.result_error_field(result, 'C'), *name = pq.result_error_field(result, 'n');
            if (code) { snprintf(state, sizeof state, "%s", code); *sqlstate = state; }
            if (name) { snprintf(violated, sizeof violated, "%s", name); *constraint = violated; }
            ok = 0;
        }
        pq.clear(result);
    }
    if (!ok && !*error) {
        snprintf(message, sizeof message, "%s", pq.error_message(conn));
        *error = message;
    }
    return ok;
}
