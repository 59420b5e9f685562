# Included by ctest once the tests of test_engine_device are discovered (tests/CMakeLists.txt
# appends it after them): a test whose threads outnumber the cores and meet at barriers at every
# step runs with no other test beside it, where each crossing would wait on the scheduler.
set_tests_properties("OmpDeviceEngine.TilesOfSeveralLanesRepairAndSearchAsALaneAloneDoes" PROPERTIES RUN_SERIAL TRUE)
