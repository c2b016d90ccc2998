#ifndef CSQLITE_SHIMS_H
#define CSQLITE_SHIMS_H

// Non-variadic entry points for the SQLite calls Swift cannot import (sqlite3_db_config is
// variadic), one per setting used.
#include <sqlite3.h>

/// Turns SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE on or off: with it on, closing the last connection of
/// a WAL database leaves the log for a later checkpoint instead of copying it back and syncing.
/// Returns SQLite's result code.
int csqlite_set_no_checkpoint_on_close(sqlite3 *database, int on);

#endif
