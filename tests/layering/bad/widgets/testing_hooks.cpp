#include "fisura/testing.h"
