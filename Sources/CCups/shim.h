#include <cups/cups.h>
#include <cups/ipp.h>
#include <cups/http.h>
