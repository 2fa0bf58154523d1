#include "io/tiff_handle.h"
#include <opencv2/core.hpp>
