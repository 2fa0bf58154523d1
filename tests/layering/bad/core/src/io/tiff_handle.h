// An internal header of this fixture's core: its folder makes `io` a core area.
#pragma once
