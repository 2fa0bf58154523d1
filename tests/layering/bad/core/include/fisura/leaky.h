#pragma once
#include <torch/torch.h>
#include "fisura/testing.h"
