// An internal header of this fixture's core: its folder makes `unlisted` a core area.
#pragma once
