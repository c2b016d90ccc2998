#include "csqlite_shims.h"

int csqlite_set_no_checkpoint_on_close(sqlite3 *database, int on) {
    return sqlite3_db_config(database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
