// An internal header of this fixture's core: its folder makes `dist` a core area.
#pragma once
