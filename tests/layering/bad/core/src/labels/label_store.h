// An internal header of this fixture's core: its folder makes `labels` a core area.
#pragma once
