"""The Python package's build (pyproject.toml): its extension, gpuga._gpuga, is CMake's target
_gpuga (python/CMakeLists.txt), configured and built here for the interpreter that runs pip.
Environment: GPUGA_CUDA (AUTO, ON, OFF; default AUTO), CMAKE_BUILD_TYPE (default Release),
CMAKE_BUILD_PARALLEL_LEVEL (default: every core)."""
import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        source = os.path.dirname(os.path.abspath(__file__))
        tree = os.path.abspath(os.path.join(self.build_temp, "cmake"))
        subprocess.run(["cmake", "-S", source, "-B", tree, "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=" + os.environ.get("CMAKE_BUILD_TYPE", "Release"),
                        "-DBUILD_TESTING=OFF", "-DGPUGA_MPI=OFF",
                        "-DGPUGA_PYTHON=ON", "-DGPUGA_CUDA=" + os.environ.get("GPUGA_CUDA", "AUTO"),
                        "-DPython3_EXECUTABLE=" + sys.executable], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", tree, "--target", "_gpuga", "-j", jobs], check=True)
        built = os.path.join(tree, "python", "gpuga", os.path.basename(self.get_ext_fullpath(ext.name)))
        self.copy_file(built, self.get_ext_fullpath(ext.name))


setup(ext_modules=[Extension("gpuga._gpuga", sources=[])], cmdclass={"build_ext": CMakeBuild})
