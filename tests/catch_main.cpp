// Catch2 v2 (Debian's single header) main for the engine tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
