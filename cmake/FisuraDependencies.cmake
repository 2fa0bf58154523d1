# Third-party libraries. LibTorch: Debian's libtorch-dev (CPU) unless a CUDA LibTorch comes first
# in CMAKE_PREFIX_PATH (e.g. python3 -c 'import torch; print(torch.utils.cmake_prefix_path)').

find_package(Torch REQUIRED)
if(TARGET torch_cuda OR TORCH_CUDA_LIBRARIES)
    set(FISURA_TORCH_CUDA ON)
    find_package(CUDAToolkit QUIET)
else()
    set(FISURA_TORCH_CUDA OFF)
endif()

# Fisura's own CUDA kernels (core/src/anomaly/*.cu) need a CUDA compiler next to a CUDA LibTorch;
# without one the same work takes the batched LibTorch path. Enabled here, at the top level,
# because every target linking fisura_core then links CUDA objects.
option(FISURA_ENABLE_CUDA_KERNELS "Compile Fisura's CUDA kernels when a CUDA compiler is found" ON)
set(FISURA_CUDA_KERNELS OFF)
if(FISURA_TORCH_CUDA AND FISURA_ENABLE_CUDA_KERNELS)
    include(CheckLanguage)
    check_language(CUDA)
    if(CMAKE_CUDA_COMPILER)
        if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
            set(CMAKE_CUDA_ARCHITECTURES 90) # H100 / H200; override on the command line
        endif()
        # The runtime LibTorch already loads, not a second static copy.
        set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
        enable_language(CUDA)
        set(FISURA_CUDA_KERNELS ON)
    endif()
endif()

find_package(OpenCV REQUIRED COMPONENTS core imgproc
             OPTIONAL_COMPONENTS imgcodecs ximgproc features2d calib3d video)
# A trimmed OpenCV (only core and imgproc installed) may still declare every module's target:
# trust imgcodecs only when its library file is really there.
set(FISURA_HAVE_IMGCODECS OFF)
if(TARGET opencv_imgcodecs)
    foreach(prop IMPORTED_LOCATION_RELEASE IMPORTED_LOCATION_NONE IMPORTED_LOCATION)
        get_target_property(loc opencv_imgcodecs ${prop})
        if(loc AND EXISTS "${loc}")
            set(FISURA_HAVE_IMGCODECS ON)
        endif()
    endforeach()
endif()
# ximgproc (libopencv-contrib-dev, which Debian's libopencv-dev depends on) gives the skeleton's
# thinning; without it core uses its own implementation of the same algorithm.
set(FISURA_HAVE_XIMGPROC OFF)
if(TARGET opencv_ximgproc)
    foreach(prop IMPORTED_LOCATION_RELEASE IMPORTED_LOCATION_NONE IMPORTED_LOCATION)
        get_target_property(loc opencv_ximgproc ${prop})
        if(loc AND EXISTS "${loc}")
            set(FISURA_HAVE_XIMGPROC ON)
        endif()
    endforeach()
endif()

# features2d, calib3d and video (Debian's libopencv-dev has them) register two scans of the same
# surface (change/: ORB matching, RANSAC fits, ECC refinement). Without them (the trimmed OpenCV
# of the GPU host's .device-deps) core builds, and alignScans answers Unsupported.
set(FISURA_HAVE_ALIGNMENT ON)
foreach(module features2d calib3d video flann)
    set(found OFF)
    if(TARGET opencv_${module})
        foreach(prop IMPORTED_LOCATION_RELEASE IMPORTED_LOCATION_NONE IMPORTED_LOCATION)
            get_target_property(loc opencv_${module} ${prop})
            if(loc AND EXISTS "${loc}")
                set(found ON)
            endif()
        endforeach()
    endif()
    if(NOT found)
        set(FISURA_HAVE_ALIGNMENT OFF)
    endif()
endforeach()
if(NOT FISURA_HAVE_ALIGNMENT)
    message(STATUS "Fisura: OpenCV features2d/calib3d/video missing: no scan alignment (compare)")
endif()

find_package(TIFF 4.5 REQUIRED)
# GDAL/OGR (libgdal-dev): vector export of measured cracks (GeoPackage, GeoJSON, Shapefile, DXF)
# and GeoTIFF georeferencing. GDAL 3.5+ installs its own package file; CMake's FindGDAL module
# is the fallback. Both define GDAL::GDAL. The application needs it; a core and fisura-cli build
# (FISURA_BUILD_GUI=OFF, e.g. on a GPU host) goes without it when it is missing, and
# FISURA_WITH_GDAL=OFF leaves it out anyway: those exports then say Unsupported.
option(FISURA_WITH_GDAL "Vector, overlay and GeoJSON export and georeferencing through GDAL" ON)
if(FISURA_WITH_GDAL)
    find_package(GDAL 3.6 CONFIG QUIET)
    if(NOT GDAL_FOUND AND NOT FISURA_BUILD_GUI)
        find_package(GDAL 3.6 QUIET)
        if(NOT GDAL_FOUND)
            message(STATUS "Fisura: no GDAL; vector, overlay and GeoJSON export are left out")
            set(FISURA_WITH_GDAL OFF)
        endif()
    elseif(NOT GDAL_FOUND)
        find_package(GDAL 3.6 REQUIRED)
    endif()
endif()
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 QUIET CONFIG)
if(NOT CLI11_FOUND)
    # Header-only; the GPU build host may lack its CMake package but not the header we carry.
    find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
    add_library(CLI11::CLI11 INTERFACE IMPORTED)
    target_include_directories(CLI11::CLI11 INTERFACE "${CLI11_INCLUDE_DIR}")
endif()
find_package(Threads REQUIRED)

if(FISURA_BUILD_GUI)
    find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets PrintSupport LinguistTools Test)
    include(FisuraQCustomPlot)
endif()
