#include "io/tiff_handle.h"
#include <opencv2/core.hpp>
#include "project/project_paths.h"
#include "labels/label_store.h"
#include <dist/communicator.h>
#include "unlisted/unlisted.h"
