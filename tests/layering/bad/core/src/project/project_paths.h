// An internal header of this fixture's core: its folder makes `project` a core area.
#pragma once
