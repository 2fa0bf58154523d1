<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es" sourcelanguage="en">
<context>
    <name>ErrorText</name>
    <message>
        <source>Done.</source>
        <translation>Hecho.</translation>
    </message>
    <message>
        <source>A setting is not valid.</source>
        <translation>Un ajuste no es válido.</translation>
    </message>
    <message>
        <source>The file or folder does not exist.</source>
        <translation>El archivo o la carpeta no existe.</translation>
    </message>
    <message>
        <source>Reading or writing failed.</source>
        <translation>Falló la lectura o la escritura.</translation>
    </message>
    <message>
        <source>This kind of file is not supported.</source>
        <translation>Este tipo de archivo no es compatible.</translation>
    </message>
    <message>
        <source>There is not enough memory.</source>
        <translation>No hay memoria suficiente.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Cancelado.</translation>
    </message>
    <message>
        <source>The GPU reported an error.</source>
        <translation>La GPU informó de un error.</translation>
    </message>
    <message>
        <source>Internal error (please report it).</source>
        <translation>Error interno (por favor, infórmenos).</translation>
    </message>
    <message numerus="yes">
        <source>%n s left</source>
        <translation>
            <numerusform>queda %n s</numerusform>
            <numerusform>quedan %n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>about %n min left</source>
        <translation>
            <numerusform>queda %n min aprox.</numerusform>
            <numerusform>quedan %n min aprox.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>about %n h left</source>
        <translation>
            <numerusform>queda %n h aprox.</numerusform>
            <numerusform>quedan %n h aprox.</numerusform>
        </translation>
    </message>
    <message>
        <source>The disk is full.</source>
        <translation>El disco está lleno.</translation>
    </message>
    <message>
        <source>Fisura may not write to this folder (it is read-only or belongs to someone else).</source>
        <translation>Fisura no puede escribir en esta carpeta (es de solo lectura o pertenece a otra persona).</translation>
    </message>
    <message>
        <source>The file is damaged or is not what its name says.</source>
        <translation>El archivo está dañado o no es lo que su nombre indica.</translation>
    </message>
    <message>
        <source>The file is larger than Fisura accepts for its kind, so it was not read.</source>
        <translation>El archivo es más grande de lo que Fisura acepta para su tipo, así que no se ha leído.</translation>
    </message>
    <message>
        <source>The image claims more pixels than Fisura opens (a small file claiming a huge image may be a decompression bomb), so it was not read.</source>
        <translation>La imagen declara más píxeles de los que Fisura abre (un archivo pequeño que declara una imagen enorme puede ser una bomba de descompresión), así que no se ha leído.</translation>
    </message>
    <message>
        <source>This is a TorchScript module: it runs code stored in the file. It was not loaded because you did not allow it.</source>
        <translation>Es un módulo TorchScript: ejecuta código guardado en el archivo. No se ha cargado porque no lo ha permitido.</translation>
    </message>
    <message>
        <source>Check the value or the file you chose, then try again.</source>
        <translation>Revise el valor o el archivo elegido y vuelva a intentarlo.</translation>
    </message>
    <message>
        <source>It may have been moved, renamed or be on a drive that is not connected: choose it again.</source>
        <translation>Puede que se haya movido, que haya cambiado de nombre o que esté en una unidad no conectada: vuelva a elegirlo.</translation>
    </message>
    <message>
        <source>Free some space or choose a folder on another disk, then try again. What was saved before is unchanged.</source>
        <translation>Libere espacio o elija una carpeta en otro disco y vuelva a intentarlo. Lo que se guardó antes no ha cambiado.</translation>
    </message>
    <message>
        <source>Choose another folder, then try again. What was saved before is unchanged.</source>
        <translation>Elija otra carpeta y vuelva a intentarlo. Lo que se guardó antes no ha cambiado.</translation>
    </message>
    <message>
        <source>Check that the file is a file (not a folder), that you may read it and write its folder, then try again.</source>
        <translation>Compruebe que el archivo es un archivo (no una carpeta), que puede leerlo y escribir en su carpeta, y vuelva a intentarlo.</translation>
    </message>
    <message>
        <source>Convert it to a kind Fisura reads (TIFF, PNG or JPEG), or open it with a newer version of Fisura.</source>
        <translation>Conviértalo a un tipo que Fisura lea (TIFF, PNG o JPEG) o ábralo con una versión más reciente de Fisura.</translation>
    </message>
    <message>
        <source>Fisura did not change it: open another copy (the original, or export it again).</source>
        <translation>Fisura no lo ha modificado: abra otra copia (el original, o expórtelo de nuevo).</translation>
    </message>
    <message>
        <source>Close other programs, or use a smaller image, region or batch, then try again.</source>
        <translation>Cierre otros programas o use una imagen, una región o un lote más pequeños y vuelva a intentarlo.</translation>
    </message>
    <message>
        <source>Try again; if it keeps failing, run on the processor instead.</source>
        <translation>Vuelva a intentarlo; si sigue fallando, ejecútelo en el procesador.</translation>
    </message>
    <message>
        <source>Please report it with the text below.</source>
        <translation>Por favor, infórmenos con el texto de abajo.</translation>
    </message>
    <message>
        <source>Check that it is the scan you meant; open it only if you trust it (command line: --max-pixels, --max-pixels-per-byte).</source>
        <translation>Compruebe que es el escaneo que quería; ábralo solo si confía en él (línea de órdenes: --max-pixels, --max-pixels-per-byte).</translation>
    </message>
    <message>
        <source>Check that it is the model you meant; open a larger file only if you trust it (command line: --max-model-size).</source>
        <translation>Compruebe que es el modelo que quería; abra un archivo mayor solo si confía en él (línea de órdenes: --max-model-size).</translation>
    </message>
    <message>
        <source>Load it only if you trust where it comes from (command line: --allow-torchscript).</source>
        <translation>Cárguelo solo si confía en su procedencia (línea de órdenes: --allow-torchscript).</translation>
    </message>
    <message>
        <source>The crack map is not the size of its scan.</source>
        <translation>El mapa de fisuras no tiene el tamaño de su escaneo.</translation>
    </message>
    <message>
        <source>The scans could not be aligned: they do not seem to show the same surface.</source>
        <translation>No se pudieron alinear los escaneos: no parecen mostrar la misma superficie.</translation>
    </message>
    <message>
        <source>The scans match roughly, but too few details agree at full resolution to align them precisely.</source>
        <translation>Los escaneos coinciden a grandes rasgos, pero a resolución completa coinciden demasiado pocos detalles para alinearlos con precisión.</translation>
    </message>
    <message>
        <source>The later scan hardly overlaps this one: there is too little in common to compare.</source>
        <translation>El escaneo posterior apenas se solapa con este: tienen demasiado poco en común para compararlos.</translation>
    </message>
    <message>
        <source>The alignment found an implausible scale, shear or perspective: the scans are probably not of the same surface.</source>
        <translation>La alineación dio una escala, una cizalla o una perspectiva inverosímiles: probablemente los escaneos no son de la misma superficie.</translation>
    </message>
    <message>
        <source>A scan is too small to align.</source>
        <translation>Un escaneo es demasiado pequeño para alinearlo.</translation>
    </message>
    <message>
        <source>Choose the crack map made from that scan.</source>
        <translation>Elija el mapa de fisuras hecho a partir de ese escaneo.</translation>
    </message>
    <message>
        <source>Choose a later scan of this surface.</source>
        <translation>Elija un escaneo posterior de esta superficie.</translation>
    </message>
    <message>
        <source>Check that the later scan is sharp and shows this surface, then try again.</source>
        <translation>Compruebe que el escaneo posterior es nítido y muestra esta superficie, y vuelva a intentarlo.</translation>
    </message>
    <message>
        <source>Choose a later scan that covers more of this surface.</source>
        <translation>Elija un escaneo posterior que cubra más de esta superficie.</translation>
    </message>
    <message>
        <source>Choose a later scan of this surface, taken from a similar distance and angle.</source>
        <translation>Elija un escaneo posterior de esta superficie, tomado desde una distancia y un ángulo parecidos.</translation>
    </message>
    <message>
        <source>Choose scans of at least %1 × %1 pixels.</source>
        <translation>Elija escaneos de al menos %1 × %1 píxeles.</translation>
    </message>
</context>
<context>
    <name>OptionTexts</name>
    <message>
        <source>Passes over all training images. Training may stop earlier when the validation score stops improving.</source>
        <translation>Pasadas por todas las imágenes de entrenamiento. El entrenamiento puede detenerse antes si la puntuación de validación deja de mejorar.</translation>
    </message>
    <message>
        <source>Images per training step. Automatic measures what fits on the GPU; with several GPUs it is per GPU.</source>
        <translation>Imágenes por paso de entrenamiento. En automático se mide lo que cabe en la GPU; con varias GPU, es por GPU.</translation>
    </message>
    <message>
        <source>Number format of the arithmetic. Automatic picks bf16 or fp16 on GPUs that compute them fast, fp32 otherwise.</source>
        <translation>Formato numérico de los cálculos. En automático se elige bf16 o fp16 en las GPU que los calculan rápido, y fp32 en los demás casos.</translation>
    </message>
    <message>
        <source>Train on the processor even when a GPU is present</source>
        <translation>Entrenar en el procesador aunque haya una GPU</translation>
    </message>
    <message>
        <source>Largest step of the optimiser. Too high and training diverges; too low and it learns slowly.</source>
        <translation>Paso máximo del optimizador. Demasiado alto y el entrenamiento diverge; demasiado bajo y aprende despacio.</translation>
    </message>
    <message>
        <source>How the learning rate changes during the job: one cycle rises and then falls, cosine only falls.</source>
        <translation>Cómo cambia la tasa de aprendizaje durante el trabajo: un ciclo sube y luego baja; coseno solo baja.</translation>
    </message>
    <message>
        <source>Share of the images kept aside to measure the model after each epoch.</source>
        <translation>Proporción de imágenes apartadas para medir el modelo después de cada época.</translation>
    </message>
    <message>
        <source>Epochs without improvement before training stops early.</source>
        <translation>Épocas sin mejora antes de que el entrenamiento se detenga antes de tiempo.</translation>
    </message>
    <message>
        <source>Flips, rotations, brightness and contrast</source>
        <translation>Volteos, giros, brillo y contraste</translation>
    </message>
    <message>
        <source>Processor threads decoding the training images.</source>
        <translation>Hilos del procesador que decodifican las imágenes de entrenamiento.</translation>
    </message>
    <message>
        <source>Processor threads for the network. Automatic uses the cores the loader threads leave; the setting applies to the whole program while a job runs.</source>
        <translation>Hilos del procesador para la red. Automático usa los núcleos que dejan libres los hilos de carga; el ajuste vale para todo el programa mientras se ejecuta un trabajo.</translation>
    </message>
    <message>
        <source>The same seed, data and options give the same split and the same starting weights.</source>
        <translation>La misma semilla, los mismos datos y las mismas opciones dan la misma división y los mismos pesos iniciales.</translation>
    </message>
    <message>
        <source>Edge of the square crops the network learns from. A U-Net needs a multiple of 2 to the power of its depth.</source>
        <translation>Lado de los recortes cuadrados con los que aprende la red. Una U-Net necesita un múltiplo de 2 elevado a su profundidad.</translation>
    </message>
    <message>
        <source>Channels of the first level; each level doubles them. Wider networks learn more but are slower.</source>
        <translation>Canales del primer nivel; cada nivel los duplica. Las redes más anchas aprenden más pero son más lentas.</translation>
    </message>
    <message>
        <source>Levels of the network, each halving the image: deeper networks see more context around each pixel.</source>
        <translation>Niveles de la red, cada uno reduce la imagen a la mitad: las redes más profundas ven más contexto alrededor de cada píxel.</translation>
    </message>
    <message>
        <source>What describes each position: the features of a small random network, or the gray pixels of a patch around it.</source>
        <translation>Qué describe cada posición: las características de una pequeña red aleatoria o los píxeles grises de un parche a su alrededor.</translation>
    </message>
    <message>
        <source>Feature channels kept for the statistics: more describe the surface better, and memory grows with their square.</source>
        <translation>Canales de características que se conservan para las estadísticas: más canales describen mejor la superficie, y la memoria crece con su cuadrado.</translation>
    </message>
    <message>
        <source>For images that are aligned (the same object at the same place). Surfaces usually are not: leave it off.</source>
        <translation>Para imágenes alineadas (el mismo objeto en el mismo lugar). Las superficies no suelen estarlo: déjelo desactivado.</translation>
    </message>
    <message>
        <source>Edge of the square tiles the scan is cut into. Larger tiles waste less on overlap but need more memory.</source>
        <translation>Lado de las teselas cuadradas en que se divide el escaneo. Las teselas grandes desperdician menos en el solapamiento pero necesitan más memoria.</translation>
    </message>
    <message>
        <source>Pixels shared by neighbouring tiles; their predictions are blended so no seams appear.</source>
        <translation>Píxeles que comparten las teselas vecinas; sus predicciones se mezclan para que no aparezcan costuras.</translation>
    </message>
    <message>
        <source>Tiles computed at once. Automatic measures what fits on a GPU and keeps batches small on the processor so cancelling is prompt.</source>
        <translation>Teselas calculadas a la vez. En automático se mide lo que cabe en la GPU y en el procesador se usan lotes pequeños para que cancelar sea inmediato.</translation>
    </message>
    <message>
        <source>How the predictions of overlapping tiles are weighted where they are blended.</source>
        <translation>Cómo se ponderan las predicciones de las teselas solapadas donde se mezclan.</translation>
    </message>
    <message>
        <source>Processor threads for the network. Automatic uses the cores the image readers leave; the setting applies to the whole program while a job runs.</source>
        <translation>Hilos del procesador para la red. Automático usa los núcleos que dejan libres los lectores de imagen; el ajuste vale para todo el programa mientras se ejecuta un trabajo.</translation>
    </message>
    <message>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source>Millimetres per scan pixel; prefilled from the scan&apos;s resolution tags. Without it lengths stay in pixels and there are no classes.</source>
        <translation>Milímetros por píxel de la imagen; se toma de las etiquetas de resolución de la imagen. Sin él las longitudes quedan en píxeles y no hay clases.</translation>
    </message>
    <message>
        <source>The crack probability from which a pixel is crack</source>
        <translation>La probabilidad de fisura a partir de la cual un píxel es fisura</translation>
    </message>
    <message>
        <source>Your own class limits: a crack belongs to the first class whose limit its width is below.</source>
        <translation>Sus propios límites de clase: una fisura pertenece a la primera clase cuyo límite supera su ancho.</translation>
    </message>
    <message>
        <source> mm</source>
        <translation> mm</translation>
    </message>
    <message>
        <source>How the later scan may differ from the earlier one: similarity (shift, turn, scale), affine (also shear) or homography (also perspective). Automatic picks the simplest one the matches allow.</source>
        <translation>Cómo puede diferir el escaneo posterior del anterior: semejanza (desplazamiento, giro, escala), afín (también cizalla) u homografía (también perspectiva). En automático se elige el más sencillo que permiten las correspondencias.</translation>
    </message>
    <message>
        <source>Corrects the model smoothly where the surface was not flat; used only when it lowers the residual clearly.</source>
        <translation>Corrige el modelo de forma suave donde la superficie no era plana; solo se usa cuando reduce claramente el residuo.</translation>
    </message>
    <message>
        <source>When both scans are georeferenced in one coordinate system, look for matches only where the georeferences say the scans overlap (the whole scans when nothing matches there).</source>
        <translation>Cuando ambos escaneos están georreferenciados en un mismo sistema de coordenadas, buscar correspondencias solo donde las georreferencias dicen que se solapan (en los escaneos enteros si allí no coincide nada).</translation>
    </message>
</context>
<context>
    <name>PaceText</name>
    <message>
        <source>unknown</source>
        <translation>desconocido</translation>
    </message>
    <message>
        <source>reading the scan</source>
        <translation>la lectura del escaneo</translation>
    </message>
    <message>
        <source>the network</source>
        <translation>la red</translation>
    </message>
    <message>
        <source>Not forecast: the network&apos;s speed was not measured.</source>
        <translation>Sin previsión: no se midió la velocidad de la red.</translation>
    </message>
    <message>
        <source>Not forecast: a %1 file is decoded whole before its tiles are read.</source>
        <translation>Sin previsión: un archivo %1 se decodifica entero antes de leer sus teselas.</translation>
    </message>
    <message numerus="yes">
        <source>%n reader thread(s)</source>
        <translation>
            <numerusform>%n hilo de lectura</numerusform>
            <numerusform>%n hilos de lectura</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n device(s)</source>
        <translation>
            <numerusform>%n dispositivo</numerusform>
            <numerusform>%n dispositivos</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading and decoding the scan (%1) is expected to set the pace: %2 MP/s on %3, while the network takes %4 MP/s on %5.</source>
        <translation>Se prevé que la lectura y decodificación del escaneo (%1) marque el ritmo: %2 MP/s con %3, mientras que la red procesa %4 MP/s con %5.</translation>
    </message>
    <message>
        <source>The network is expected to set the pace: %1 MP/s on %2, while decoding the scan (%3) keeps up at %4 MP/s on %5.</source>
        <translation>Se prevé que la red marque el ritmo: %1 MP/s con %2, mientras que la decodificación del escaneo (%3) sigue el paso a %4 MP/s con %5.</translation>
    </message>
</context>
<context>
    <name>PolicyText</name>
    <message>
        <source>Device</source>
        <translation>Dispositivo</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precisión</translation>
    </message>
    <message>
        <source>Loss scaling</source>
        <translation>Escalado de la pérdida</translation>
    </message>
    <message>
        <source>TF32 matrix maths</source>
        <translation>Cálculo matricial TF32</translation>
    </message>
    <message>
        <source>Convolution autotuning</source>
        <translation>Ajuste automático de convoluciones</translation>
    </message>
    <message>
        <source>Channels-last layout</source>
        <translation>Disposición channels-last</translation>
    </message>
    <message>
        <source>Pinned host memory</source>
        <translation>Memoria del host fijada</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Tamaño de lote</translation>
    </message>
    <message>
        <source>Loader threads</source>
        <translation>Hilos de carga</translation>
    </message>
    <message>
        <source>on</source>
        <translation>activado</translation>
    </message>
    <message>
        <source>off</source>
        <translation>desactivado</translation>
    </message>
    <message>
        <source>processor (CPU)</source>
        <translation>procesador (CPU)</translation>
    </message>
    <message>
        <source>dynamic</source>
        <translation>dinámico</translation>
    </message>
    <message>
        <source>a usable CUDA GPU was found</source>
        <translation>se encontró una GPU CUDA utilizable</translation>
    </message>
    <message>
        <source>the processor was requested</source>
        <translation>se pidió el procesador</translation>
    </message>
    <message>
        <source>there is no usable GPU</source>
        <translation>no hay ninguna GPU utilizable</translation>
    </message>
    <message>
        <source>reduced precision was requested but needs a GPU</source>
        <translation>se pidió precisión reducida, pero necesita una GPU</translation>
    </message>
    <message>
        <source>bf16 was requested but compute capability %1 has no bf16 tensor cores</source>
        <translation>se pidió bf16, pero la capacidad de cómputo %1 no tiene núcleos tensoriales bf16</translation>
    </message>
    <message>
        <source>fp16 was requested but compute capability %1 has no fp16 tensor cores</source>
        <translation>se pidió fp16, pero la capacidad de cómputo %1 no tiene núcleos tensoriales fp16</translation>
    </message>
    <message>
        <source>requested by the user</source>
        <translation>pedido por el usuario</translation>
    </message>
    <message>
        <source>the processor computes in fp32</source>
        <translation>el procesador calcula en fp32</translation>
    </message>
    <message>
        <source>compute capability %1 has bf16 tensor cores; no loss scaling needed</source>
        <translation>la capacidad de cómputo %1 tiene núcleos tensoriales bf16; no hace falta escalar la pérdida</translation>
    </message>
    <message>
        <source>compute capability %1 has fp16 tensor cores but no bf16</source>
        <translation>la capacidad de cómputo %1 tiene núcleos tensoriales fp16 pero no bf16</translation>
    </message>
    <message>
        <source>compute capability %1 has no tensor cores for reduced precision</source>
        <translation>la capacidad de cómputo %1 no tiene núcleos tensoriales para precisión reducida</translation>
    </message>
    <message>
        <source>fp16 gradients underflow without it</source>
        <translation>sin él, los gradientes fp16 se desbordan por abajo</translation>
    </message>
    <message>
        <source>Ampere or later: fp32 matrix products run on tensor cores</source>
        <translation>Ampere o posterior: los productos de matrices fp32 usan núcleos tensoriales</translation>
    </message>
    <message>
        <source>needs an Ampere or later GPU</source>
        <translation>necesita una GPU Ampere o posterior</translation>
    </message>
    <message>
        <source>input sizes are fixed, so autotuned convolutions pay off</source>
        <translation>los tamaños de entrada son fijos, así que el ajuste automático de convoluciones compensa</translation>
    </message>
    <message>
        <source>only applies on a GPU</source>
        <translation>solo se aplica en una GPU</translation>
    </message>
    <message>
        <source>tensor-core convolutions prefer this layout</source>
        <translation>las convoluciones con núcleos tensoriales prefieren esta disposición</translation>
    </message>
    <message>
        <source>no gain without reduced-precision tensor cores</source>
        <translation>sin núcleos tensoriales de precisión reducida no aporta nada</translation>
    </message>
    <message>
        <source>page-locked buffers allow asynchronous copies to the GPU</source>
        <translation>los búferes fijados en memoria permiten copias asíncronas a la GPU</translation>
    </message>
    <message>
        <source>there is no GPU to copy to</source>
        <translation>no hay ninguna GPU a la que copiar</translation>
    </message>
    <message>
        <source>from the memory table for %1 GB (not measured)</source>
        <translation>según la tabla de memoria para %1 GB (sin medir)</translation>
    </message>
    <message>
        <source>measured: the fastest batch that fits with headroom</source>
        <translation>medido: el lote más rápido que cabe con margen</translation>
    </message>
    <message>
        <source>a moderate batch for the processor</source>
        <translation>un lote moderado para el procesador</translation>
    </message>
    <message>
        <source>Optimizer step</source>
        <translation>Paso del optimizador</translation>
    </message>
    <message>
        <source>Compute threads</source>
        <translation>Hilos de cálculo</translation>
    </message>
    <message>
        <source>Parallel operator threads</source>
        <translation>Hilos de operadores en paralelo</translation>
    </message>
    <message>
        <source>BatchNorm folding</source>
        <translation>Fusión de BatchNorm</translation>
    </message>
    <message>
        <source>fused</source>
        <translation>fusionado</translation>
    </message>
    <message>
        <source>multi-tensor</source>
        <translation>multitensor</translation>
    </message>
    <message>
        <source>AdamW as one fused kernel for all weights; the loss is read back every half second, so no step waits for the GPU</source>
        <translation>AdamW como un único kernel fusionado para todos los pesos; la pérdida se lee cada medio segundo, así que ningún paso espera a la GPU</translation>
    </message>
    <message>
        <source>AdamW on all weights at once (multi-tensor operations)</source>
        <translation>AdamW sobre todos los pesos a la vez (operaciones multitensor)</translation>
    </message>
    <message>
        <source>bf16 was requested but this processor has no bf16 instructions</source>
        <translation>se pidió bf16, pero este procesador no tiene instrucciones bf16</translation>
    </message>
    <message>
        <source>bf16 was requested, but on the processor it trains no faster than fp32</source>
        <translation>se pidió bf16, pero en el procesador no entrena más rápido que fp32</translation>
    </message>
    <message>
        <source>the processor has %1: bf16 for inference</source>
        <translation>el procesador tiene %1: bf16 para la inferencia</translation>
    </message>
    <message>
        <source>measured: bf16 does not train faster on the processor</source>
        <translation>medido: bf16 no entrena más rápido en el procesador</translation>
    </message>
    <message>
        <source>measured: bf16 trains faster on this processor</source>
        <translation>medido: bf16 entrena más rápido en este procesador</translation>
    </message>
    <message>
        <source>the processor&apos;s bf16 convolutions prefer this layout</source>
        <translation>las convoluciones bf16 del procesador prefieren esta disposición</translation>
    </message>
    <message>
        <source>measured: no gain in fp32 on the processor</source>
        <translation>medido: sin ganancia en fp32 en el procesador</translation>
    </message>
    <message>
        <source>the networks are one chain of layers: nothing runs side by side</source>
        <translation>las redes son una cadena de capas: nada se ejecuta en paralelo</translation>
    </message>
    <message>
        <source>inference runs a copy with BatchNorm folded into the convolutions</source>
        <translation>la inferencia usa una copia con BatchNorm fusionada en las convoluciones</translation>
    </message>
    <message>
        <source>training updates the BatchNorm statistics</source>
        <translation>el entrenamiento actualiza las estadísticas de BatchNorm</translation>
    </message>
    <message>
        <source>imported TorchScript models run as they are</source>
        <translation>los modelos TorchScript importados se ejecutan tal cual</translation>
    </message>
    <message>
        <source>Training step</source>
        <translation>Paso de entrenamiento</translation>
    </message>
    <message>
        <source>BatchNorm + ReLU</source>
        <translation>BatchNorm + ReLU</translation>
    </message>
    <message>
        <source>Convolution + ReLU</source>
        <translation>Convolución + ReLU</translation>
    </message>
    <message>
        <source>one CUDA graph</source>
        <translation>un grafo CUDA</translation>
    </message>
    <message>
        <source>op by op</source>
        <translation>operación a operación</translation>
    </message>
    <message>
        <source>separate kernels</source>
        <translation>kernels separados</translation>
    </message>
    <message>
        <source>the whole training step is captured once as a CUDA graph and replayed: one launch per step; a smaller last batch runs op by op</source>
        <translation>el paso de entrenamiento completo se captura una vez como grafo CUDA y se reproduce: un lanzamiento por paso; un último lote más pequeño se ejecuta operación a operación</translation>
    </message>
    <message>
        <source>CUDA graphs are turned off</source>
        <translation>los grafos CUDA están desactivados</translation>
    </message>
    <message>
        <source>fp16 loss scaling reads one flag per step, so the step runs op by op</source>
        <translation>el escalado de pérdida fp16 lee un indicador en cada paso, así que el paso se ejecuta operación a operación</translation>
    </message>
    <message>
        <source>the optimizer is not the fused kernel, so the step runs op by op</source>
        <translation>el optimizador no es el kernel fusionado, así que el paso se ejecuta operación a operación</translation>
    </message>
    <message>
        <source>capturing the step as a CUDA graph failed (%1); it runs op by op</source>
        <translation>la captura del paso como grafo CUDA falló (%1); se ejecuta operación a operación</translation>
    </message>
    <message>
        <source>Fisura&apos;s fused kernels: fewer passes over the activations</source>
        <translation>kernels fusionados de Fisura: menos pasadas sobre las activaciones</translation>
    </message>
    <message>
        <source>this build has no CUDA compiler for Fisura&apos;s fused kernels</source>
        <translation>esta compilación no tiene compilador CUDA para los kernels fusionados de Fisura</translation>
    </message>
    <message>
        <source>the fused kernels are turned off</source>
        <translation>los kernels fusionados están desactivados</translation>
    </message>
    <message>
        <source>cuDNN&apos;s fused convolution + bias + ReLU on the folded network</source>
        <translation>convolución + sesgo + ReLU fusionados de cuDNN sobre la red plegada</translation>
    </message>
    <message>
        <source>Network of a tile batch</source>
        <translation>Red de un lote de teselas</translation>
    </message>
    <message>
        <source>U-Net pooling and concatenation</source>
        <translation>Agrupación y concatenación de la U-Net</translation>
    </message>
    <message>
        <source>Fisura&apos;s kernels</source>
        <translation>núcleos de Fisura</translation>
    </message>
    <message>
        <source>LibTorch&apos;s operators</source>
        <translation>operadores de LibTorch</translation>
    </message>
    <message>
        <source>the network of a tile batch is captured once as a CUDA graph and replayed: one launch per batch</source>
        <translation>la red de un lote de teselas se captura una vez como grafo CUDA y se reproduce: un lanzamiento por lote</translation>
    </message>
    <message>
        <source>an imported TorchScript module runs op by op through its own executor</source>
        <translation>un módulo TorchScript importado se ejecuta operación a operación con su propio ejecutor</translation>
    </message>
    <message>
        <source>capturing the network as a CUDA graph failed (%1); it runs op by op</source>
        <translation>la captura de la red como grafo CUDA falló (%1); se ejecuta operación a operación</translation>
    </message>
    <message>
        <source>Fisura&apos;s kernels: max pooling without indices, the decoder&apos;s concatenation with the upsampling bias in one pass</source>
        <translation>núcleos de Fisura: max pooling sin índices y la concatenación del decodificador con el sesgo del sobremuestreo en una sola pasada</translation>
    </message>
    <message>
        <source>Fisura&apos;s U-Net kernels are turned off</source>
        <translation>los núcleos de U-Net de Fisura están desactivados</translation>
    </message>
    <message>
        <source>this build has no CUDA compiler for Fisura&apos;s U-Net kernels</source>
        <translation>esta compilación no tiene compilador CUDA para los núcleos de U-Net de Fisura</translation>
    </message>
    <message>
        <source>GPUs computing tiles</source>
        <translation>GPU que calculan teselas</translation>
    </message>
    <message>
        <source>Processes training together</source>
        <translation>Procesos que entrenan juntos</translation>
    </message>
    <message>
        <source>GPU of this process</source>
        <translation>GPU de este proceso</translation>
    </message>
    <message>
        <source>Batch per GPU</source>
        <translation>Lote por GPU</translation>
    </message>
    <message>
        <source>several processes average their gradients between the backward pass and the optimizer step, so the step runs op by op</source>
        <translation>varios procesos promedian sus gradientes entre la pasada hacia atrás y el paso del optimizador, así que el paso se ejecuta operación a operación</translation>
    </message>
    <message>
        <source>one process trains alone</source>
        <translation>un solo proceso entrena</translation>
    </message>
    <message>
        <source>%1 processes, one per GPU, average their gradients over NCCL while the backward pass runs</source>
        <translation>%1 procesos, uno por GPU, promedian sus gradientes por NCCL mientras corre la pasada hacia atrás</translation>
    </message>
    <message>
        <source>%1 processes on the processor average their gradients over gloo</source>
        <translation>%1 procesos en el procesador promedian sus gradientes por gloo</translation>
    </message>
    <message>
        <source>each process drives the GPU of its local rank (%1 processes on this host)</source>
        <translation>cada proceso usa la GPU de su rango local (%1 procesos en este equipo)</translation>
    </message>
    <message>
        <source>every step trains %1 samples: this batch on each process</source>
        <translation>cada paso entrena %1 muestras: este lote en cada proceso</translation>
    </message>
    <message>
        <source>every usable GPU (%1): each computes one band of tile columns of a scan</source>
        <translation>todas las GPU utilizables (%1): cada una calcula una franja de columnas de teselas del escaneo</translation>
    </message>
    <message>
        <source>the only usable GPU</source>
        <translation>la única GPU utilizable</translation>
    </message>
    <message>
        <source>one GPU was requested</source>
        <translation>se pidió una sola GPU</translation>
    </message>
    <message>
        <source>%1 GPUs were requested; all usable ones are used</source>
        <translation>se pidieron %1 GPU; se usan todas las utilizables</translation>
    </message>
    <message>
        <source>only GPUs of the first one&apos;s model (%1): the bands stay balanced and the map does not depend on the GPU</source>
        <translation>solo GPU del mismo modelo que la primera (%1): las franjas quedan equilibradas y el mapa no depende de la GPU</translation>
    </message>
    <message>
        <source>the processor computes</source>
        <translation>calcula el procesador</translation>
    </message>
    <message>
        <source>the processor computes as %1 devices (column bands), as tests ask</source>
        <translation>el procesador calcula como %1 dispositivos (franjas de columnas), como piden las pruebas</translation>
    </message>
    <message>
        <source>%1 GPUs train together, one process each</source>
        <translation>%1 GPU entrenan juntas, un proceso cada una</translation>
    </message>
    <message>
        <source>deterministic algorithms chosen without timing: the same map on every GPU and in every run</source>
        <translation>algoritmos deterministas elegidos sin cronometrar: el mismo mapa en cada GPU y en cada ejecución</translation>
    </message>
    <message>
        <source>the whole training step, the all-reduce of the gradients included, is captured once as a CUDA graph and replayed: one launch per step</source>
        <translation>el paso de entrenamiento completo, con la reducción de los gradientes entre procesos, se captura una vez como grafo CUDA y se reproduce: un lanzamiento por paso</translation>
    </message>
    <message>
        <source>%1 of the %2 cores prepare the next images while the GPU computes</source>
        <translation>%1 de los %2 núcleos preparan las siguientes imágenes mientras la GPU calcula</translation>
    </message>
    <message numerus="yes">
        <source>prepare the next images while the network computes; they share the %n core(s) with it</source>
        <translation>
            <numerusform>preparan las siguientes imágenes mientras la red calcula; comparten con ella su %n núcleo</numerusform>
            <numerusform>preparan las siguientes imágenes mientras la red calcula; comparten con ella los %n núcleos</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the network uses all %n core(s); preparing images takes little and shares them</source>
        <translation>
            <numerusform>la red usa su %n núcleo; preparar imágenes cuesta poco y lo comparte</numerusform>
            <numerusform>la red usa los %n núcleos; preparar imágenes cuesta poco y los comparte</numerusform>
        </translation>
    </message>
    <message>
        <source>the network uses %1 of the %2 cores; the others stay free for preparing images and for the window</source>
        <translation>la red usa %1 de los %2 núcleos; los demás quedan libres para preparar imágenes y para la ventana</translation>
    </message>
    <message>
        <source>the %1 of the %2 cores that the loader threads leave</source>
        <translation>los %1 de los %2 núcleos que dejan libres los hilos de carga</translation>
    </message>
    <message>
        <source>Map compression level</source>
        <translation>Nivel de compresión del mapa</translation>
    </message>
    <message>
        <source>adaptive</source>
        <translation>adaptativo</translation>
    </message>
    <message>
        <source>fixed</source>
        <translation>fijo</translation>
    </message>
    <message>
        <source>compressing the map must not hold the GPUs back: the level drops while the writer is what limits the job, to levels measured to compress faster, and climbs back once it keeps up; the map may be larger, its pixels are the same</source>
        <translation>comprimir el mapa no debe frenar las GPU: el nivel baja mientras la escritura es lo que limita el trabajo, a niveles que se ha medido que comprimen más rápido, y vuelve a subir cuando se pone al día; el mapa puede ocupar más, sus píxeles son los mismos</translation>
    </message>
</context>
<context>
    <name>ProvenanceText</name>
    <message>
        <source>procedural scenes</source>
        <translation>escenas procedurales</translation>
    </message>
    <message>
        <source>Starter model</source>
        <translation>Modelo inicial</translation>
    </message>
    <message>
        <source>Starter model (trained on %1)</source>
        <translation>Modelo inicial (entrenado con %1)</translation>
    </message>
    <message>
        <source>Starter model (%1)</source>
        <translation>Modelo inicial (%1)</translation>
    </message>
    <message>
        <source>Starter model (trained on %1, %2)</source>
        <translation>Modelo inicial (entrenado con %1, %2)</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%Ln image(s)): ODS F1 %2 · OIS F1 %3 · mIoU %4 at %5 px</source>
        <translation>
            <numerusform>%1 (%Ln imagen): F1 ODS %2 · F1 OIS %3 · mIoU %4 a %5 px</numerusform>
            <numerusform>%1 (%Ln imágenes): F1 ODS %2 · F1 OIS %3 · mIoU %4 a %5 px</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::app::ChangeReportMode</name>
    <message>
        <source>--lang must be es or en.</source>
        <translation>--lang debe ser es o en.</translation>
    </message>
    <message>
        <source>--%1 must be a date as YYYY-MM-DD.</source>
        <translation>--%1 debe ser una fecha AAAA-MM-DD.</translation>
    </message>
    <message>
        <source>An option is out of range: %1</source>
        <translation>Una opción está fuera de rango: %1</translation>
    </message>
    <message>
        <source>Compare two inspections and write the PDF report of the changes to &lt;file&gt; without opening a window.</source>
        <translation>Compara dos inspecciones y escribe el informe PDF de los cambios en &lt;file&gt; sin abrir ninguna ventana.</translation>
    </message>
    <message>
        <source>The earlier scan.</source>
        <translation>La imagen anterior.</translation>
    </message>
    <message>
        <source>The earlier scan&apos;s crack map.</source>
        <translation>El mapa de fisuras de la imagen anterior.</translation>
    </message>
    <message>
        <source>The later scan.</source>
        <translation>La imagen posterior.</translation>
    </message>
    <message>
        <source>The later scan&apos;s crack map.</source>
        <translation>El mapa de fisuras de la imagen posterior.</translation>
    </message>
    <message>
        <source>Date of the earlier inspection, YYYY-MM-DD (default: the scan file&apos;s).</source>
        <translation>Fecha de la inspección anterior, AAAA-MM-DD (por omisión: la del archivo de la imagen).</translation>
    </message>
    <message>
        <source>Date of the later inspection, YYYY-MM-DD (default: the scan file&apos;s).</source>
        <translation>Fecha de la inspección posterior, AAAA-MM-DD (por omisión: la del archivo de la imagen).</translation>
    </message>
    <message>
        <source>Centre lines closer than this many pixels are the same crack.</source>
        <translation>Las líneas centrales a menos de estos píxeles son la misma fisura.</translation>
    </message>
    <message>
        <source>Close gaps with a disk of this radius (px).</source>
        <translation>Cierra huecos con un disco de este radio (px).</translation>
    </message>
    <message>
        <source>Drop cracks with fewer pixels.</source>
        <translation>Descarta las fisuras con menos píxeles.</translation>
    </message>
    <message>
        <source>Width statistic that decides the class: median, mean or max.</source>
        <translation>Estadístico del ancho que decide la clase: median, mean o max.</translation>
    </message>
    <message>
        <source>Alignment model: auto, similarity, affine or homography.</source>
        <translation>Modelo de alineación: auto, similarity, affine u homography.</translation>
    </message>
    <message>
        <source>--change-report-pdf needs --%1.</source>
        <translation>--change-report-pdf necesita --%1.</translation>
    </message>
    <message>
        <source>--align-model must be auto, similarity, affine or homography.</source>
        <translation>--align-model debe ser auto, similarity, affine u homography.</translation>
    </message>
</context>
<context>
    <name>fisura::app::MainWindow</name>
    <message>
        <source>Fisura — crack inspection workbench</source>
        <translation>Fisura — banco de trabajo para inspección de fisuras</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Configuración</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>A&amp;yuda</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Preferencias…</translation>
    </message>
    <message>
        <source>&amp;About Fisura</source>
        <translation>&amp;Acerca de Fisura</translation>
    </message>
    <message>
        <source>About Fisura</source>
        <translation>Acerca de Fisura</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Fisura %1&lt;/h3&gt;&lt;p&gt;Find and measure cracks in concrete, asphalt and masonry.&lt;/p&gt;&lt;p&gt;LibTorch %2 · OpenCV %3 · libtiff %4 · Qt %5&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Fisura %1&lt;/h3&gt;&lt;p&gt;Detecte y mida fisuras en hormigón, asfalto y mampostería.&lt;/p&gt;&lt;p&gt;LibTorch %2 · OpenCV %3 · libtiff %4 · Qt %5&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Demo project ready.</source>
        <translation>Proyecto de demostración listo.</translation>
    </message>
    <message>
        <source>Project: %1</source>
        <translation>Proyecto: %1</translation>
    </message>
    <message>
        <source>No project open</source>
        <translation>Ningún proyecto abierto</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>The demo project is being generated.</source>
        <translation>Se está generando el proyecto de demostración.</translation>
    </message>
    <message>
        <source>Quit Fisura</source>
        <translation>Salir de Fisura</translation>
    </message>
    <message>
        <source>Stop it and quit? What was saved stays intact: the last completed epoch&apos;s checkpoint, the best model and finished maps.</source>
        <translation>¿Detenerlo y salir? Lo ya guardado queda intacto: el punto de control de la última época completada, el mejor modelo y los mapas terminados.</translation>
    </message>
    <message>
        <source>Stop and quit</source>
        <translation>Detener y salir</translation>
    </message>
    <message>
        <source>Keep working</source>
        <translation>Seguir trabajando</translation>
    </message>
    <message>
        <source>Stopping… Fisura closes when the work has stopped.</source>
        <translation>Deteniendo… Fisura se cerrará cuando el trabajo se haya detenido.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Stop generating the demo project (nothing half-made is left)</source>
        <translation>Detiene la generación del proyecto de demostración (no queda nada a medio hacer)</translation>
    </message>
    <message>
        <source>Open &amp;scan…</source>
        <translation>Abrir &amp;escaneo…</translation>
    </message>
    <message>
        <source>Open a scan of any size in Inspect</source>
        <translation>Abrir un escaneo de cualquier tamaño en Inspeccionar</translation>
    </message>
</context>
<context>
    <name>fisura::app::ReportMode</name>
    <message>
        <source>Write the PDF inspection report of --map to &lt;file&gt; without opening a window.</source>
        <translation>Escribe el informe de inspección PDF de --map en &lt;file&gt; sin abrir ninguna ventana.</translation>
    </message>
    <message>
        <source>Map (or mask) to measure for the report.</source>
        <translation>Mapa (o máscara) que medir para el informe.</translation>
    </message>
    <message>
        <source>The scan the map belongs to (overview, pixel size).</source>
        <translation>La imagen a la que pertenece el mapa (vista general, tamaño de píxel).</translation>
    </message>
    <message>
        <source>Pixel size in mm (default: the files&apos; tags).</source>
        <translation>Tamaño de píxel en mm (por defecto: las etiquetas de los archivos).</translation>
    </message>
    <message>
        <source>The crack probability from which a pixel is crack (above 0, at most 1).</source>
        <translation>La probabilidad de fisura a partir de la cual un píxel es fisura (mayor que 0, como mucho 1).</translation>
    </message>
    <message>
        <source>Report language: es or en.</source>
        <translation>Idioma del informe: es o en.</translation>
    </message>
    <message>
        <source>Name of the model that made the map, for the report.</source>
        <translation>Nombre del modelo que generó el mapa, para el informe.</translation>
    </message>
    <message>
        <source>Upper limits of the width classes in mm, comma-separated (default 0.1,0.3,1).</source>
        <translation>Límites superiores de las clases de anchura en mm, separados por comas (por defecto 0.1,0.3,1).</translation>
    </message>
    <message>
        <source>--lang must be es or en.</source>
        <translation>--lang debe ser es o en.</translation>
    </message>
    <message>
        <source>--report-pdf needs --map.</source>
        <translation>--report-pdf necesita --map.</translation>
    </message>
    <message>
        <source>--threshold must be above 0 to measure cracks.</source>
        <translation>--threshold debe ser mayor que 0 para medir fisuras.</translation>
    </message>
    <message>
        <source>--pixel-size must be a positive number of millimetres.</source>
        <translation>--pixel-size debe ser un número positivo de milímetros.</translation>
    </message>
    <message>
        <source>--class-limits must be three rising numbers of millimetres.</source>
        <translation>--class-limits deben ser tres números crecientes de milímetros.</translation>
    </message>
    <message>
        <source>Width classes: a standard&apos;s preset (aci224r-humid, en1992-xc1, ...) whose tolerable width the report flags, default, or custom (--class-limits).</source>
        <translation>Clases de anchura: el preajuste de una norma (aci224r-humid, en1992-xc1, ...) cuya anchura tolerable señala el informe, default, o custom (--class-limits).</translation>
    </message>
    <message>
        <source>--classes: unknown preset %1.</source>
        <translation>--classes: preajuste desconocido %1.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::AdvancedOptionsWidget</name>
    <message>
        <source>Advanced</source>
        <translation>Avanzado</translation>
    </message>
    <message>
        <source>Tile size:</source>
        <translation>Tamaño de tesela:</translation>
    </message>
    <message>
        <source>Overlap:</source>
        <translation>Solapamiento:</translation>
    </message>
    <message>
        <source>Batch:</source>
        <translation>Lote:</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>Precisión:</translation>
    </message>
    <message>
        <source>Blending window:</source>
        <translation>Ventana de fusión:</translation>
    </message>
    <message>
        <source>the model&apos;s (%1 px)</source>
        <translation>la del modelo (%1 px)</translation>
    </message>
    <message>
        <source>the model&apos;s</source>
        <translation>la del modelo</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>automático</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>coseno</translation>
    </message>
    <message>
        <source>Gaussian</source>
        <translation>gaussiana</translation>
    </message>
    <message>
        <source>Use the processor even when a GPU is usable</source>
        <translation>Usar el procesador aunque haya una GPU utilizable</translation>
    </message>
    <message>
        <source>What Fisura chose for this model, and why:</source>
        <translation>Lo que Fisura eligió para este modelo, y por qué:</translation>
    </message>
    <message>
        <source>What Fisura chooses on this computer, and why:</source>
        <translation>Lo que Fisura elige en este equipo, y por qué:</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>Ajuste</translation>
    </message>
    <message>
        <source>Choice</source>
        <translation>Elección</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Motivo</translation>
    </message>
    <message>
        <source>small batches on the processor keep cancelling prompt</source>
        <translation>los lotes pequeños en el procesador hacen que cancelar sea inmediato</translation>
    </message>
    <message>
        <source>imported TorchScript models keep their layout</source>
        <translation>los modelos TorchScript importados conservan su disposición</translation>
    </message>
    <message>
        <source>Compute threads:</source>
        <translation>Hilos de cálculo:</translation>
    </message>
    <message>
        <source>Pace of the latest scan</source>
        <translation>Ritmo del último escaneo</translation>
    </message>
</context>
<context>
    <name>fisura::ui::AlignSettings</name>
    <message>
        <source>Alignment &amp;model:</source>
        <translation>&amp;Modelo de alineación:</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automático</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>Semejanza</translation>
    </message>
    <message>
        <source>Affine</source>
        <translation>Afín</translation>
    </message>
    <message>
        <source>Homography</source>
        <translation>Homografía</translation>
    </message>
    <message>
        <source>Correction field where the surface is not flat</source>
        <translation>Campo de corrección donde la superficie no es plana</translation>
    </message>
    <message>
        <source>Start from the georeference</source>
        <translation>Partir de la georreferencia</translation>
    </message>
    <message>
        <source>Compare again</source>
        <translation>Comparar de nuevo</translation>
    </message>
    <message>
        <source>Align and compare the same two dates again with these settings</source>
        <translation>Alinear y comparar de nuevo las mismas dos fechas con estos ajustes</translation>
    </message>
</context>
<context>
    <name>fisura::ui::AnalyzePane</name>
    <message>
        <source>The model could not be prepared: %1</source>
        <translation>No se pudo preparar el modelo: %1</translation>
    </message>
    <message>
        <source>The result could not be recorded in the project: %1</source>
        <translation>No se pudo registrar el resultado en el proyecto: %1</translation>
    </message>
    <message>
        <source>Analyze</source>
        <translation>Analizar</translation>
    </message>
    <message>
        <source>No scans there: Fisura reads TIFF, PNG and JPEG images.</source>
        <translation>No hay escaneos ahí: Fisura lee imágenes TIFF, PNG y JPEG.</translation>
    </message>
    <message>
        <source>Add scans</source>
        <translation>Añadir escaneos</translation>
    </message>
    <message>
        <source>Scans (*.tif *.tiff *.png *.jpg *.jpeg);;All files (*)</source>
        <translation>Escaneos (*.tif *.tiff *.png *.jpg *.jpeg);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Add a folder of scans</source>
        <translation>Añadir una carpeta de escaneos</translation>
    </message>
    <message>
        <source>Choose a usable model first.</source>
        <translation>Elija primero un modelo utilizable.</translation>
    </message>
    <message>
        <source>Scans are being analysed.</source>
        <translation>Se están analizando escaneos.</translation>
    </message>
    <message>
        <source>Analysis finished: %1 done, %2 failed, %3 cancelled.</source>
        <translation>Análisis terminado: %1 hechos, %2 fallidos, %3 cancelados.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Scans</source>
        <translation>Escaneos</translation>
    </message>
    <message>
        <source>Add scans…</source>
        <translation>Añadir escaneos…</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Añadir carpeta…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
    <message numerus="yes">
        <source>The last queue was interrupted: %n scan(s) still wait.</source>
        <translation>
            <numerusform>La última cola se interrumpió: queda %n escaneo por analizar.</numerusform>
            <numerusform>La última cola se interrumpió: quedan %n escaneos por analizar.</numerusform>
        </translation>
    </message>
    <message>
        <source>Resume queue</source>
        <translation>Reanudar la cola</translation>
    </message>
    <message>
        <source>Drop scans or folders here (TIFF of any size, PNG, JPEG).</source>
        <translation>Suelte aquí escaneos o carpetas (TIFF de cualquier tamaño, PNG, JPEG).</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ejecutar</translation>
    </message>
    <message>
        <source>Analyse the waiting scans one after the other</source>
        <translation>Analizar los escaneos en espera uno tras otro</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Stop the selected scans; the queue goes on with the next</source>
        <translation>Detener los escaneos seleccionados; la cola sigue con el siguiente</translation>
    </message>
    <message>
        <source>Cancel all</source>
        <translation>Cancelar todo</translation>
    </message>
    <message>
        <source>Open in Inspect</source>
        <translation>Abrir en Inspeccionar</translation>
    </message>
    <message>
        <source>Show the scan with its crack map at the model&apos;s threshold</source>
        <translation>Mostrar el escaneo con su mapa de fisuras al umbral del modelo</translation>
    </message>
</context>
<context>
    <name>fisura::ui::AnalyzeQueueModel</name>
    <message>
        <source>Waiting</source>
        <translation>En espera</translation>
    </message>
    <message>
        <source>Preparing the model</source>
        <translation>Preparando el modelo</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>En curso</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Hecho</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fallido</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Cancelado</translation>
    </message>
    <message>
        <source>%1 s · %2 MP/s</source>
        <translation>%1 s · %2 MP/s</translation>
    </message>
    <message>
        <source>%1 MP/s</source>
        <translation>%1 MP/s</translation>
    </message>
    <message>
        <source>%1 × %2 px</source>
        <translation>%1 × %2 px</translation>
    </message>
    <message>
        <source>%1 mm</source>
        <translation>%1 mm</translation>
    </message>
    <message>
        <source>Scan</source>
        <translation>Escaneo</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>Pixel size</source>
        <translation>Tamaño de píxel</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Progreso</translation>
    </message>
    <message>
        <source>Map</source>
        <translation>Mapa</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Error</translation>
    </message>
    <message>
        <source>Reading and decoding the scan set the pace: a scan stored with a faster compression, or on a faster disk, would be analysed sooner.</source>
        <translation>La lectura y la descompresión del escaneo marcaron el ritmo: un escaneo guardado con una compresión más rápida, o en un disco más rápido, se analizaría antes.</translation>
    </message>
    <message>
        <source>Compressing and writing the map set the pace.</source>
        <translation>La compresión y la escritura del mapa marcaron el ritmo.</translation>
    </message>
    <message>
        <source>The network on the device set the pace.</source>
        <translation>La red en el dispositivo marcó el ritmo.</translation>
    </message>
    <message>
        <source>To keep up, %1 of the map&apos;s %2 bands were compressed at a faster Zstd level (down to %3).
The map is about %4 % larger for it.</source>
        <translation>Para no quedarse atrás, %1 de las %2 bandas del mapa se comprimieron con un nivel Zstd más rápido (hasta %3).
Por ello el mapa ocupa alrededor de un %4 % más.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ChangeOverlay</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ChangeReport</name>
    <message>
        <source>%1 mm</source>
        <translation>%1 mm</translation>
    </message>
    <message>
        <source>%1 px</source>
        <translation>%1 px</translation>
    </message>
    <message>
        <source>Changes since %1</source>
        <translation>Cambios desde el %1</translation>
    </message>
    <message>
        <source>Changes since the earlier inspection</source>
        <translation>Cambios desde la inspección anterior</translation>
    </message>
    <message>
        <source>%1 → %2 · %3</source>
        <translation>%1 → %2 · %3</translation>
    </message>
    <message>
        <source>The two inspections</source>
        <translation>Las dos inspecciones</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>sin indicar</translation>
    </message>
    <message>
        <source>Earlier scan</source>
        <translation>Imagen anterior</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Later scan</source>
        <translation>Imagen posterior</translation>
    </message>
    <message>
        <source>Earlier crack map</source>
        <translation>Mapa de fisuras anterior</translation>
    </message>
    <message>
        <source>Compared on</source>
        <translation>Comparadas en</translation>
    </message>
    <message>
        <source>the earlier scan&apos;s grid, %1 × %2 px</source>
        <translation>la malla de la imagen anterior, %1 × %2 px</translation>
    </message>
    <message>
        <source>Report date</source>
        <translation>Fecha del informe</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Vista general</translation>
    </message>
    <message>
        <source>The earlier scan; each change&apos;s box in the colour of its kind, with its number in the table of changes.</source>
        <translation>La imagen anterior; el recuadro de cada cambio en el color de su tipo, con su número en la tabla de cambios.</translation>
    </message>
    <message>
        <source>Alignment</source>
        <translation>Alineación</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Scale and rotation</source>
        <translation>Escala y giro</translation>
    </message>
    <message>
        <source>%1 · %2°</source>
        <translation>%1 · %2°</translation>
    </message>
    <message>
        <source>Feature matches</source>
        <translation>Correspondencias de puntos</translation>
    </message>
    <message>
        <source>%1 of %2 consistent with the model</source>
        <translation>%1 de %2 coherentes con el modelo</translation>
    </message>
    <message>
        <source>Refinement windows</source>
        <translation>Ventanas de refinado</translation>
    </message>
    <message>
        <source>%1 of %2 matched</source>
        <translation>%1 de %2 emparejadas</translation>
    </message>
    <message>
        <source>Residual</source>
        <translation>Residuo</translation>
    </message>
    <message>
        <source>%1 px (root mean square)</source>
        <translation>%1 px (media cuadrática)</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>Solape</translation>
    </message>
    <message>
        <source>%1 % of the earlier scan</source>
        <translation>%1 % de la imagen anterior</translation>
    </message>
    <message>
        <source>Residual per region (px):</source>
        <translation>Residuo por región (px):</translation>
    </message>
    <message>
        <source>What changed</source>
        <translation>Qué ha cambiado</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Cambio</translation>
    </message>
    <message>
        <source>Cracks</source>
        <translation>Fisuras</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>Longitud</translation>
    </message>
    <message>
        <source>Widest crack</source>
        <translation>Fisura más ancha</translation>
    </message>
    <message>
        <source>no. %1, %2 wide (%3), width change %4</source>
        <translation>n.º %1, %2 de ancho (%3), cambio de ancho %4</translation>
    </message>
    <message>
        <source>Changes per width class:</source>
        <translation>Cambios por clase de anchura:</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Clase</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>Cambios</translation>
    </message>
    <message>
        <source>No.</source>
        <translation>N.º</translation>
    </message>
    <message>
        <source>Length gained</source>
        <translation>Longitud ganada</translation>
    </message>
    <message>
        <source>Width change</source>
        <translation>Cambio de ancho</translation>
    </message>
    <message>
        <source>Max. width</source>
        <translation>Ancho máx.</translation>
    </message>
    <message>
        <source>Position (px)</source>
        <translation>Posición (px)</translation>
    </message>
    <message>
        <source>The %1 first of %2 changes; the CSV export lists them all.</source>
        <translation>Los %1 primeros de %2 cambios; la exportación CSV los incluye todos.</translation>
    </message>
    <message>
        <source>Neither map has cracks at this threshold.</source>
        <translation>Ninguno de los dos mapas tiene fisuras con este umbral.</translation>
    </message>
    <message>
        <source>Settings used</source>
        <translation>Parámetros utilizados</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Umbral</translation>
    </message>
    <message>
        <source>crack probability %1</source>
        <translation>probabilidad de fisura %1</translation>
    </message>
    <message>
        <source>Pixel size</source>
        <translation>Tamaño de píxel</translation>
    </message>
    <message>
        <source>unknown: lengths and widths in pixels</source>
        <translation>desconocido: longitudes y anchos en píxeles</translation>
    </message>
    <message>
        <source>Width classes</source>
        <translation>Clases de anchura</translation>
    </message>
    <message>
        <source>Software</source>
        <translation>Programa</translation>
    </message>
    <message>
        <source>Changes between two inspections</source>
        <translation>Cambios entre dos inspecciones</translation>
    </message>
    <message>
        <source>Correction field</source>
        <translation>Campo de corrección</translation>
    </message>
    <message>
        <source>used (the surface was not planar): largest correction %1 px, window residual %2 px without it, %3 px with it</source>
        <translation>usado (la superficie no era plana): corrección máxima %1 px, residuo de las ventanas %2 px sin él, %3 px con él</translation>
    </message>
    <message>
        <source>not needed: the model alone fits the windows</source>
        <translation>no necesario: el modelo solo ya se ajusta a las ventanas</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ChangeTableModel</name>
    <message>
        <source>#</source>
        <translation>n.º</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Cambio</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>Longitud</translation>
    </message>
    <message>
        <source>Length gain</source>
        <translation>Longitud ganada</translation>
    </message>
    <message>
        <source>Width change</source>
        <translation>Cambio de anchura</translation>
    </message>
    <message>
        <source>Width class</source>
        <translation>Clase de anchura</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ChangeText</name>
    <message>
        <source>New</source>
        <translation>Nueva</translation>
    </message>
    <message>
        <source>Grown</source>
        <translation>Crecida</translation>
    </message>
    <message>
        <source>Unchanged</source>
        <translation>Sin cambios</translation>
    </message>
    <message>
        <source>Gone</source>
        <translation>Desaparecida</translation>
    </message>
    <message>
        <source>Outside the later scan</source>
        <translation>Fuera del escaneo posterior</translation>
    </message>
    <message>
        <source>Comparison cancelled.</source>
        <translation>Comparación cancelada.</translation>
    </message>
    <message>
        <source>This build of Fisura cannot align scans (it was built without OpenCV&apos;s feature matching).</source>
        <translation>Esta compilación de Fisura no puede alinear escaneos (se compiló sin la correspondencia de características de OpenCV).</translation>
    </message>
    <message>
        <source>%1%2 mm</source>
        <translation>%1%2 mm</translation>
    </message>
    <message>
        <source>%1%2 px</source>
        <translation>%1%2 px</translation>
    </message>
    <message>
        <source>similarity</source>
        <translation>semejanza</translation>
    </message>
    <message>
        <source>affine</source>
        <translation>afín</translation>
    </message>
    <message>
        <source>homography</source>
        <translation>homografía</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>automático</translation>
    </message>
    <message>
        <source>Aligned (%1): %2 of %3 matches agree, residual %4 px, overlap %5 %</source>
        <translation>Alineado (%1): %2 de %3 correspondencias concuerdan, residuo %4 px, solape %5 %</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1: %2 (%3)</translation>
    </message>
    <message>
        <source>Widest crack: %1 (%2), width change %3</source>
        <translation>Fisura más ancha: %1 (%2), cambio de anchura %3</translation>
    </message>
    <message>
        <source>With correction field (the surface was not planar): largest correction %1 px, window residual %2 px without the field, %3 px with it</source>
        <translation>Con campo de corrección (la superficie no era plana): corrección máxima %1 px, residuo de las ventanas %2 px sin el campo, %3 px con él</translation>
    </message>
    <message>
        <source>Started from the georeference: features were matched only where it says the scans overlap.</source>
        <translation>Se partió de la georreferencia: se buscaron correspondencias solo donde indica que los escaneos se solapan.</translation>
    </message>
    <message>
        <source>The georeference was not confirmed: features were matched over the whole scans.</source>
        <translation>La georreferencia no se confirmó: se buscaron correspondencias en los escaneos enteros.</translation>
    </message>
    <message>
        <source>The scans are georeferenced in different coordinate systems (not reprojected): features were matched over the whole scans.</source>
        <translation>Los escaneos están georreferenciados en sistemas de coordenadas distintos (no se reproyectan): se buscaron correspondencias en los escaneos enteros.</translation>
    </message>
    <message>
        <source>%1 px (%2 map units)</source>
        <translation>%1 px (%2 unidades del mapa)</translation>
    </message>
    <message>
        <source>%1 px</source>
        <translation>%1 px</translation>
    </message>
    <message>
        <source>The georeference placed the later scan %1 from where the alignment does.</source>
        <translation>La georreferencia situaba el escaneo posterior a %1 de donde lo sitúa la alineación.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ClassPresetBox</name>
    <message>
        <source>Where the width class limits come from: Fisura&apos;s classes, a standard&apos;s tolerable crack width, or your own limits</source>
        <translation>De dónde vienen los límites de las clases de anchura: las clases de Fisura, la anchura de fisura tolerable de una norma o sus propios límites</translation>
    </message>
    <message>
        <source>Your own upper limits, below.</source>
        <translation>Sus propios límites superiores, aquí debajo.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::CompareDatesPanel</name>
    <message>
        <source>TIFF images</source>
        <translation>Imágenes TIFF</translation>
    </message>
    <message>
        <source>Crack map of the later scan</source>
        <translation>Mapa de fisuras del escaneo posterior</translation>
    </message>
    <message>
        <source>Later scan of this surface</source>
        <translation>Escaneo posterior de esta superficie</translation>
    </message>
    <message>
        <source>Add the crack map of this scan first.</source>
        <translation>Añada primero el mapa de fisuras de este escaneo.</translation>
    </message>
    <message>
        <source>The crack map %1 is %2 × %3 px, its scan %4 is %5 × %6 px: choose the map made from that scan.</source>
        <translation>El mapa de fisuras %1 mide %2 × %3 px y su escaneo %4 mide %5 × %6 px: elija el mapa hecho a partir de ese escaneo.</translation>
    </message>
    <message>
        <source>Aligning the later scan…</source>
        <translation>Alineando el escaneo posterior…</translation>
    </message>
    <message>
        <source>Warping the later crack map…</source>
        <translation>Transformando el mapa de fisuras posterior…</translation>
    </message>
    <message>
        <source>Warping the later scan…</source>
        <translation>Transformando el escaneo posterior…</translation>
    </message>
    <message>
        <source>Comparing the cracks…</source>
        <translation>Comparando las fisuras…</translation>
    </message>
    <message>
        <source>%1 (%2 left)</source>
        <translation>%1 (quedan %2)</translation>
    </message>
    <message>
        <source>Later scan (aligned, grey)</source>
        <translation>Escaneo posterior (alineado, en gris)</translation>
    </message>
    <message>
        <source>%1 changes since the earlier date.</source>
        <translation>%1 cambios desde la fecha anterior.</translation>
    </message>
    <message>
        <source>Compare dates</source>
        <translation>Comparar fechas</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Show changes on the scan</source>
        <translation>Mostrar los cambios sobre el escaneo</translation>
    </message>
    <message>
        <source>Swipe between dates</source>
        <translation>Deslizar entre fechas</translation>
    </message>
    <message>
        <source>Swipe between the earlier scan with its cracks and the later scan aligned onto it (shown in grey: the brightest channel)</source>
        <translation>Deslizar entre el escaneo anterior con sus fisuras y el escaneo posterior alineado sobre él (en gris: el canal más claro)</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ComparisonSummary</name>
    <message>
        <source>True positives</source>
        <translation>Verdaderos positivos</translation>
    </message>
    <message>
        <source>False positives</source>
        <translation>Falsos positivos</translation>
    </message>
    <message>
        <source>Missed cracks</source>
        <translation>Fisuras no detectadas</translation>
    </message>
    <message>
        <source>Change the colour</source>
        <translation>Cambiar el color</translation>
    </message>
    <message>
        <source>Cracks of the ground truth with no prediction nearby (false negatives)</source>
        <translation>Fisuras de la referencia sin ninguna predicción cerca (falsos negativos)</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precisión</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>Exhaustividad</translation>
    </message>
    <message>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <source>IoU</source>
        <translation>IoU</translation>
    </message>
    <message>
        <source>Tolerance</source>
        <translation>Tolerancia</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Umbral</translation>
    </message>
    <message>
        <source>%1 px</source>
        <translation>%1 px</translation>
    </message>
</context>
<context>
    <name>fisura::ui::CrackTable</name>
    <message>
        <source>All</source>
        <translation>Todas</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Clase</translation>
    </message>
    <message>
        <source>Length ≥ (mm)</source>
        <translation>Longitud ≥ (mm)</translation>
    </message>
    <message>
        <source>Length ≥ (px)</source>
        <translation>Longitud ≥ (px)</translation>
    </message>
    <message>
        <source>Width ≥ (mm)</source>
        <translation>Anchura ≥ (mm)</translation>
    </message>
    <message>
        <source>Width ≥ (px)</source>
        <translation>Anchura ≥ (px)</translation>
    </message>
    <message>
        <source>Hide cracks shorter than this</source>
        <translation>Ocultar las fisuras más cortas</translation>
    </message>
    <message>
        <source>Hide cracks narrower than this (median width)</source>
        <translation>Ocultar las fisuras más estrechas (anchura mediana)</translation>
    </message>
    <message>
        <source>%1 of %2 cracks</source>
        <translation>%1 de %2 fisuras</translation>
    </message>
</context>
<context>
    <name>fisura::ui::CrackTableModel</name>
    <message>
        <source>mm</source>
        <translation>mm</translation>
    </message>
    <message>
        <source>px</source>
        <translation>px</translation>
    </message>
    <message>
        <source>No.</source>
        <translation>N.º</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Clase</translation>
    </message>
    <message>
        <source>Length (%1)</source>
        <translation>Longitud (%1)</translation>
    </message>
    <message>
        <source>Width (%1)</source>
        <translation>Anchura (%1)</translation>
    </message>
    <message>
        <source>Max. width (%1)</source>
        <translation>Anchura máx. (%1)</translation>
    </message>
    <message>
        <source>Branches</source>
        <translation>Ramas</translation>
    </message>
    <message>
        <source>Area (mm²)</source>
        <translation>Área (mm²)</translation>
    </message>
    <message>
        <source>Area (px)</source>
        <translation>Área (px)</translation>
    </message>
    <message>
        <source>Angle (°)</source>
        <translation>Ángulo (°)</translation>
    </message>
    <message>
        <source>Position (px)</source>
        <translation>Posición (px)</translation>
    </message>
    <message>
        <source>⚠ Over limit</source>
        <translation>⚠ Supera el límite</translation>
    </message>
    <message>
        <source>Over limit</source>
        <translation>Supera el límite</translation>
    </message>
</context>
<context>
    <name>fisura::ui::DataPane</name>
    <message>
        <source>Data</source>
        <translation>Datos</translation>
    </message>
    <message>
        <source>Open folder…</source>
        <translation>Abrir carpeta…</translation>
    </message>
    <message>
        <source>Choose a folder of images to browse</source>
        <translation>Elija una carpeta de imágenes para explorarla</translation>
    </message>
    <message>
        <source>Generate demo data…</source>
        <translation>Generar datos de demostración…</translation>
    </message>
    <message>
        <source>Write a synthetic crack dataset with exact masks</source>
        <translation>Escribe un conjunto de datos sintético de fisuras con máscaras exactas</translation>
    </message>
    <message>
        <source>No folder open</source>
        <translation>Ninguna carpeta abierta</translation>
    </message>
    <message>
        <source>Show crack mask</source>
        <translation>Mostrar máscara de fisuras</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Select an image to preview it.</source>
        <translation>Seleccione una imagen para previsualizarla.</translation>
    </message>
    <message>
        <source>%1 × %2 px</source>
        <translation>%1 × %2 px</translation>
    </message>
    <message>
        <source>crack pixels: %1 %</source>
        <translation>píxeles de fisura: %1 %</translation>
    </message>
    <message>
        <source>no mask</source>
        <translation>sin máscara</translation>
    </message>
    <message>
        <source>Open image folder</source>
        <translation>Abrir carpeta de imágenes</translation>
    </message>
    <message>
        <source>Folder for the demo dataset (empty, or an earlier demo dataset)</source>
        <translation>Carpeta para los datos de demostración (vacía o con datos de demostración anteriores)</translation>
    </message>
    <message>
        <source>Demo dataset ready.</source>
        <translation>Datos de demostración listos.</translation>
    </message>
    <message>
        <source>Cannot show this image.</source>
        <translation>No se puede mostrar esta imagen.</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Archivos</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Etiquetas</translation>
    </message>
    <message>
        <source>Label next</source>
        <translation>Qué etiquetar</translation>
    </message>
    <message>
        <source>Which images are labelled, proposed or unlabelled</source>
        <translation>Qué imágenes están etiquetadas, propuestas o sin etiquetar</translation>
    </message>
    <message>
        <source>Which unlabelled images to label next, by the model&apos;s uncertainty</source>
        <translation>Qué imágenes sin etiquetar conviene etiquetar a continuación, según la incertidumbre del modelo</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>The datasets and scans of the open project</source>
        <translation>Los conjuntos de datos y escaneos del proyecto abierto</translation>
    </message>
</context>
<context>
    <name>fisura::ui::DatasetPicker</name>
    <message>
        <source>Dataset</source>
        <translation>Conjunto de datos</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Añadir carpeta…</translation>
    </message>
    <message>
        <source>Add a folder of images to the project (or drop one here)</source>
        <translation>Añadir al proyecto una carpeta de imágenes (o soltarla aquí)</translation>
    </message>
    <message>
        <source>No dataset yet: add a folder of images, or drop one here.</source>
        <translation>Aún no hay datos: añada una carpeta de imágenes o suéltela aquí.</translation>
    </message>
    <message>
        <source>Looking at the images…</source>
        <translation>Revisando las imágenes…</translation>
    </message>
    <message>
        <source>This folder cannot be used: %1</source>
        <translation>Esta carpeta no se puede usar: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n image(s) with masks</source>
        <translation>
            <numerusform>%n imagen con máscara</numerusform>
            <numerusform>%n imágenes con máscara</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n crack-free image(s)</source>
        <translation>
            <numerusform>%n imagen sin fisuras</numerusform>
            <numerusform>%n imágenes sin fisuras</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) cannot be used</source>
        <translation>
            <numerusform>%n archivo no se puede usar</numerusform>
            <numerusform>%n archivos no se pueden usar</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>image without a mask</source>
        <translation>imagen sin máscara</translation>
    </message>
    <message>
        <source>mask without an image</source>
        <translation>máscara sin imagen</translation>
    </message>
    <message>
        <source>another image has the same name</source>
        <translation>otra imagen tiene el mismo nombre</translation>
    </message>
    <message>
        <source>another mask has the same name</source>
        <translation>otra máscara tiene el mismo nombre</translation>
    </message>
    <message>
        <source>not in a class folder</source>
        <translation>no está en una carpeta de clase</translation>
    </message>
    <message>
        <source>the mask cannot be read</source>
        <translation>no se puede leer la máscara</translation>
    </message>
    <message>
        <source>the image cannot be read</source>
        <translation>no se puede leer la imagen</translation>
    </message>
    <message>
        <source>the mask and the image differ in size</source>
        <translation>la máscara y la imagen tienen tamaños distintos</translation>
    </message>
    <message>
        <source>Add a dataset folder</source>
        <translation>Añadir una carpeta de datos</translation>
    </message>
    <message numerus="yes">
        <source>All %Ln image(s) are labelled and used for training.</source>
        <translation>
            <numerusform>La %Ln imagen está etiquetada y se usa para entrenar.</numerusform>
            <numerusform>Las %Ln imágenes están etiquetadas y se usan para entrenar.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln labelled image(s) are used for training (%1 proposed and %2 unlabelled are not).</source>
        <translation>
            <numerusform>Se usa %Ln imagen etiquetada para entrenar (%1 propuestas y %2 sin etiquetar no).</numerusform>
            <numerusform>Se usan %Ln imágenes etiquetadas para entrenar (%1 propuestas y %2 sin etiquetar no).</numerusform>
        </translation>
    </message>
    <message>
        <source>Show the label of each image</source>
        <translation>Mostrar la etiqueta de cada imagen</translation>
    </message>
</context>
<context>
    <name>fisura::ui::InspectPane</name>
    <message>
        <source>x %1, y %2</source>
        <translation>x %1, y %2</translation>
    </message>
    <message>
        <source>%1 × %2 mm</source>
        <translation>%1 × %2 mm</translation>
    </message>
    <message>
        <source>Inspect</source>
        <translation>Inspeccionar</translation>
    </message>
    <message>
        <source>Open scan…</source>
        <translation>Abrir escaneo…</translation>
    </message>
    <message>
        <source>Open a TIFF scan of any size</source>
        <translation>Abrir un escaneo TIFF de cualquier tamaño</translation>
    </message>
    <message>
        <source>Add overlay…</source>
        <translation>Añadir capa…</translation>
    </message>
    <message>
        <source>Lay a probability map or mask of the same size over the scan</source>
        <translation>Superponer al escaneo un mapa de probabilidad o una máscara del mismo tamaño</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Ajustar</translation>
    </message>
    <message>
        <source>Show the whole scan (Home)</source>
        <translation>Mostrar el escaneo entero (Inicio)</translation>
    </message>
    <message>
        <source>1:1</source>
        <translation>1:1</translation>
    </message>
    <message>
        <source>One scan pixel per screen pixel (1)</source>
        <translation>Un píxel del escaneo por píxel de pantalla (1)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Comparar</translation>
    </message>
    <message>
        <source>Swipe between two layers with a divider</source>
        <translation>Comparar dos capas con un divisor deslizante</translation>
    </message>
    <message>
        <source>Snapshot…</source>
        <translation>Captura…</translation>
    </message>
    <message>
        <source>Save the view with its overlays and scale bar as PNG</source>
        <translation>Guardar la vista con sus capas y la barra de escala como PNG</translation>
    </message>
    <message>
        <source>%1 · %2 × %3 px</source>
        <translation>%1 · %2 × %3 px</translation>
    </message>
    <message>
        <source>No scan open</source>
        <translation>Ningún escaneo abierto</translation>
    </message>
    <message>
        <source>Layers (bottom to top)</source>
        <translation>Capas (de abajo arriba)</translation>
    </message>
    <message>
        <source>Draw this layer higher</source>
        <translation>Dibujar esta capa más arriba</translation>
    </message>
    <message>
        <source>Draw this layer lower</source>
        <translation>Dibujar esta capa más abajo</translation>
    </message>
    <message>
        <source>Remove this layer</source>
        <translation>Quitar esta capa</translation>
    </message>
    <message>
        <source>Colours</source>
        <translation>Colores</translation>
    </message>
    <message>
        <source>Opacity</source>
        <translation>Opacidad</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Umbral</translation>
    </message>
    <message>
        <source>Outline only</source>
        <translation>Solo contorno</translation>
    </message>
    <message>
        <source>Left of divider</source>
        <translation>A la izquierda del divisor</translation>
    </message>
    <message>
        <source>Right of divider</source>
        <translation>A la derecha del divisor</translation>
    </message>
    <message>
        <source>Building overview…</source>
        <translation>Generando vista general…</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modo</translation>
    </message>
    <message>
        <source>Swipe divider</source>
        <translation>Divisor deslizante</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>Lado a lado</translation>
    </message>
    <message>
        <source>Red</source>
        <translation>Rojo</translation>
    </message>
    <message>
        <source>Green</source>
        <translation>Verde</translation>
    </message>
    <message>
        <source>Blue</source>
        <translation>Azul</translation>
    </message>
    <message>
        <source>Yellow</source>
        <translation>Amarillo</translation>
    </message>
    <message>
        <source>Magenta</source>
        <translation>Magenta</translation>
    </message>
    <message>
        <source>Heat (black–red–yellow–white)</source>
        <translation>Calor (negro–rojo–amarillo–blanco)</translation>
    </message>
    <message>
        <source>Opened %1.</source>
        <translation>Abierto %1.</translation>
    </message>
    <message>
        <source>Open scan</source>
        <translation>Abrir escaneo</translation>
    </message>
    <message>
        <source>TIFF images</source>
        <translation>Imágenes TIFF</translation>
    </message>
    <message>
        <source>Open a scan first.</source>
        <translation>Abra primero un escaneo.</translation>
    </message>
    <message>
        <source>Add overlay</source>
        <translation>Añadir capa</translation>
    </message>
    <message>
        <source>Save snapshot</source>
        <translation>Guardar captura</translation>
    </message>
    <message>
        <source>PNG images</source>
        <translation>Imágenes PNG</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>Guardado %1.</translation>
    </message>
    <message>
        <source>Custom colour</source>
        <translation>Color personalizado</translation>
    </message>
    <message>
        <source>Measure cracks</source>
        <translation>Medir fisuras</translation>
    </message>
    <message>
        <source>Count and measure the cracks of the selected map layer</source>
        <translation>Contar y medir las fisuras de la capa de mapa seleccionada</translation>
    </message>
    <message>
        <source>Ruler</source>
        <translation>Regla</translation>
    </message>
    <message>
        <source>Drag on the scan to measure a distance in millimetres</source>
        <translation>Arrastre sobre la imagen para medir una distancia en milímetros</translation>
    </message>
    <message>
        <source>Width classes</source>
        <translation>Clases de anchura</translation>
    </message>
    <message>
        <source>Open a scan first: Compare swipes between two of its layers.</source>
        <translation>Abra primero un escaneo: Comparar desliza entre dos de sus capas.</translation>
    </message>
    <message>
        <source>Add a second layer (a map or a mask) to compare two layers.</source>
        <translation>Añada una segunda capa (un mapa o una máscara) para comparar dos capas.</translation>
    </message>
    <message>
        <source>Open a scan first: the ruler measures distances on it.</source>
        <translation>Abra primero un escaneo: la regla mide distancias sobre él.</translation>
    </message>
    <message>
        <source>Compare dates…</source>
        <translation>Comparar fechas…</translation>
    </message>
    <message>
        <source>Align a later scan of this surface and show how its cracks changed</source>
        <translation>Alinear un escaneo posterior de esta superficie y mostrar cómo han cambiado sus fisuras</translation>
    </message>
    <message>
        <source>Grey (a scan)</source>
        <translation>Gris (un escaneo)</translation>
    </message>
    <message>
        <source>Add the crack map of this scan first (Add overlay…).</source>
        <translation>Añada primero el mapa de fisuras de este escaneo (Añadir capa…).</translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelGeoJsonBox</name>
    <message>
        <source>GeoJSON files</source>
        <translation>Archivos GeoJSON</translation>
    </message>
    <message>
        <source>All files</source>
        <translation>Todos los archivos</translation>
    </message>
    <message>
        <source>Export labels as GeoJSON</source>
        <translation>Exportar las etiquetas como GeoJSON</translation>
    </message>
    <message>
        <source>Import labels from GeoJSON</source>
        <translation>Importar etiquetas desde GeoJSON</translation>
    </message>
    <message>
        <source>Could not import %1 into the labels of %2.</source>
        <translation>No se pudo importar %1 en las etiquetas de %2.</translation>
    </message>
    <message>
        <source>The file is not GeoJSON that Fisura can read.</source>
        <translation>El archivo no es un GeoJSON que Fisura pueda leer.</translation>
    </message>
    <message>
        <source>Fisura reads Polygon, MultiPolygon, LineString and MultiLineString features inside the image, with line widths above 0 and up to %1 px.</source>
        <translation>Fisura lee entidades Polygon, MultiPolygon, LineString y MultiLineString dentro de la imagen, con anchos de línea mayores que 0 y de hasta %1 px.</translation>
    </message>
    <message>
        <source>Import GeoJSON</source>
        <translation>Importar GeoJSON</translation>
    </message>
    <message>
        <source>Imported the labels of %1 from %2.</source>
        <translation>Etiquetas de %1 importadas desde %2.</translation>
    </message>
    <message>
        <source>Could not export the labels of %1 to %2.</source>
        <translation>No se pudieron exportar las etiquetas de %1 a %2.</translation>
    </message>
    <message>
        <source>Exported the labels of %1 to %2.</source>
        <translation>Etiquetas de %1 exportadas a %2.</translation>
    </message>
    <message>
        <source>Import GeoJSON…</source>
        <translation>Importar GeoJSON…</translation>
    </message>
    <message>
        <source>Replace the labels of this image with the polygons and lines of a GeoJSON file (QuPath annotations); Undo takes them back</source>
        <translation>Reemplazar las etiquetas de esta imagen por los polígonos y las líneas de un archivo GeoJSON (anotaciones de QuPath); Deshacer las devuelve</translation>
    </message>
    <message>
        <source>Export GeoJSON…</source>
        <translation>Exportar GeoJSON…</translation>
    </message>
    <message>
        <source>Write the labels of this image as GeoJSON that QuPath and GIS read</source>
        <translation>Escribir las etiquetas de esta imagen como GeoJSON que leen QuPath y los SIG</translation>
    </message>
    <message>
        <source>Export as</source>
        <translation>Exportar como</translation>
    </message>
    <message>
        <source>Outlines</source>
        <translation>Contornos</translation>
    </message>
    <message>
        <source>Centre lines with width</source>
        <translation>Ejes con su ancho</translation>
    </message>
    <message>
        <source>Both</source>
        <translation>Ambos</translation>
    </message>
    <message>
        <source>Polygons along the label&apos;s pixels: read back exactly</source>
        <translation>Polígonos por los bordes de los píxeles de la etiqueta: se leen de vuelta exactamente</translation>
    </message>
    <message>
        <source>Each crack branch as a line with its width in px, as the measurement finds it</source>
        <translation>Cada rama de fisura como una línea con su ancho en px, tal como lo halla la medición</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>Importando %1…</translation>
    </message>
    <message>
        <source>Exporting the labels of %1…</source>
        <translation>Exportando las etiquetas de %1…</translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelModeController</name>
    <message>
        <source>Label</source>
        <translation>Etiquetar</translation>
    </message>
    <message>
        <source>Draw the cracks of this image: its mask is saved beside it (%1)</source>
        <translation>Dibujar las fisuras de esta imagen: su máscara se guarda junto a ella (%1)</translation>
    </message>
    <message>
        <source>Could not open %1 to label it.</source>
        <translation>No se pudo abrir %1 para etiquetarla.</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Etiquetas</translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelPanel</name>
    <message>
        <source>Could not open the labels of %1.</source>
        <translation>No se pudieron abrir las etiquetas de %1.</translation>
    </message>
    <message>
        <source>Saving the labels of %1… %2 %</source>
        <translation>Guardando las etiquetas de %1… %2 %</translation>
    </message>
    <message>
        <source>Saved the labels of %1 to %2.</source>
        <translation>Etiquetas de %1 guardadas en %2.</translation>
    </message>
    <message>
        <source>Unsaved labels</source>
        <translation>Etiquetas sin guardar</translation>
    </message>
    <message>
        <source>The labels of %1 have changes that are not saved.</source>
        <translation>Las etiquetas de %1 tienen cambios sin guardar.</translation>
    </message>
    <message>
        <source>Save them before going on?</source>
        <translation>¿Guardarlas antes de continuar?</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Guardar</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Descartar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>The labels of %1 are being saved.</source>
        <translation>Se están guardando las etiquetas de %1.</translation>
    </message>
    <message>
        <source>Whole image crack-free</source>
        <translation>Imagen entera sin fisuras</translation>
    </message>
    <message>
        <source>No crack labelled yet.</source>
        <translation>Aún no hay ninguna fisura etiquetada.</translation>
    </message>
    <message>
        <source>Label: %1 px, all drawn by you</source>
        <translation>Etiqueta: %1 px, todo dibujado por usted</translation>
    </message>
    <message>
        <source>Label: %1 px · %2 % from the model&apos;s proposal · %3 % your edits · %4 px of the proposal erased</source>
        <translation>Etiqueta: %1 px · %2 % de la propuesta del modelo · %3 % de sus ediciones · %4 px de la propuesta borrados</translation>
    </message>
    <message>
        <source>%1 of %2 to label</source>
        <translation>%1 de %2 por etiquetar</translation>
    </message>
    <message>
        <source>Open an image and choose Label to draw its cracks.</source>
        <translation>Abra una imagen y elija Etiquetar para dibujar sus fisuras.</translation>
    </message>
    <message>
        <source>Saving the labels of %1…</source>
        <translation>Guardando las etiquetas de %1…</translation>
    </message>
    <message>
        <source>Labels of %1 · not saved</source>
        <translation>Etiquetas de %1 · sin guardar</translation>
    </message>
    <message>
        <source>Labels of %1 · saved</source>
        <translation>Etiquetas de %1 · guardadas</translation>
    </message>
    <message>
        <source>Undo “%1” (%2)</source>
        <translation>Deshacer «%1» (%2)</translation>
    </message>
    <message>
        <source>Redo “%1” (%2)</source>
        <translation>Rehacer «%1» (%2)</translation>
    </message>
    <message>
        <source>Crack line</source>
        <translation>Línea de fisura</translation>
    </message>
    <message>
        <source>Brush</source>
        <translation>Pincel</translation>
    </message>
    <message>
        <source>Eraser</source>
        <translation>Borrador</translation>
    </message>
    <message>
        <source>Fill</source>
        <translation>Relleno</translation>
    </message>
    <message>
        <source>Crack-free area</source>
        <translation>Zona sin fisuras</translation>
    </message>
    <message>
        <source>Click along the crack; Enter or a double click finishes, Backspace removes the last point, Esc cancels, Shift keeps the segment at 0, 45 or 90° (%1)</source>
        <translation>Haga clic a lo largo de la fisura; Intro o un doble clic termina, Retroceso quita el último punto, Esc cancela, Mayús mantiene el tramo a 0, 45 o 90° (%1)</translation>
    </message>
    <message>
        <source>Paint cracks; [ and ] change the size (%1)</source>
        <translation>Pintar fisuras; [ y ] cambian el tamaño (%1)</translation>
    </message>
    <message>
        <source>Erase labels; [ and ] change the size (%1)</source>
        <translation>Borrar etiquetas; [ y ] cambian el tamaño (%1)</translation>
    </message>
    <message>
        <source>Fill the closed region around the click (%1)</source>
        <translation>Rellenar la región cerrada alrededor del clic (%1)</translation>
    </message>
    <message>
        <source>Drag a rectangle that has no crack: its labels are cleared (%1)</source>
        <translation>Arrastre un rectángulo sin fisuras: se borran sus etiquetas (%1)</translation>
    </message>
    <message>
        <source>Clear every label: the image shows no crack</source>
        <translation>Borrar todas las etiquetas: la imagen no muestra ninguna fisura</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Deshacer</translation>
    </message>
    <message>
        <source>Undo the last edit (%1)</source>
        <translation>Deshacer la última edición (%1)</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Rehacer</translation>
    </message>
    <message>
        <source>Redo the edit undone last (%1)</source>
        <translation>Rehacer la última edición deshecha (%1)</translation>
    </message>
    <message>
        <source>Save labels</source>
        <translation>Guardar etiquetas</translation>
    </message>
    <message>
        <source>Save the mask beside the image (%1)</source>
        <translation>Guardar la máscara junto a la imagen (%1)</translation>
    </message>
    <message>
        <source>Line width</source>
        <translation>Ancho de línea</translation>
    </message>
    <message>
        <source>Brush size (px)</source>
        <translation>Tamaño del pincel (px)</translation>
    </message>
    <message>
        <source>px</source>
        <translation>px</translation>
    </message>
    <message>
        <source>mm</source>
        <translation>mm</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Anterior</translation>
    </message>
    <message>
        <source>Label the previous image of the list</source>
        <translation>Etiquetar la imagen anterior de la lista</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Siguiente</translation>
    </message>
    <message>
        <source>Label the next image of the list</source>
        <translation>Etiquetar la imagen siguiente de la lista</translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelProposeBox</name>
    <message>
        <source>The model proposed %1 crack pixels; erase what is wrong and trace what it missed.</source>
        <translation>El modelo propuso %1 píxeles de fisura; borre lo que sobre y trace lo que falte.</translation>
    </message>
    <message>
        <source>Choose a model that loads to propose labels.</source>
        <translation>Elija un modelo que se pueda cargar para proponer etiquetas.</translation>
    </message>
    <message>
        <source>Running %1 on %2…</source>
        <translation>Ejecutando %1 sobre %2…</translation>
    </message>
    <message>
        <source>Start from the model</source>
        <translation>Partir del modelo</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Dónde</translation>
    </message>
    <message>
        <source>Visible region</source>
        <translation>Región visible</translation>
    </message>
    <message>
        <source>Whole image</source>
        <translation>Imagen entera</translation>
    </message>
    <message>
        <source>Propose labels</source>
        <translation>Proponer etiquetas</translation>
    </message>
    <message>
        <source>Run the model and put its thresholded prediction into the label layer as one edit you can undo</source>
        <translation>Ejecutar el modelo y poner su predicción umbralizada en la capa de etiquetas como una sola edición que se puede deshacer</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelRankingPanel</name>
    <message>
        <source>The images could not be ranked: %1</source>
        <translation>No se pudieron ordenar las imágenes: %1</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>no se puede leer</translation>
    </message>
    <message>
        <source>Rank unlabelled images</source>
        <translation>Ordenar imágenes sin etiquetar</translation>
    </message>
    <message>
        <source>Run the model over every unlabelled image and list them, the images it is least sure about first</source>
        <translation>Aplica el modelo a cada imagen sin etiquetar y las lista, primero aquellas de las que está menos seguro</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Label in this order</source>
        <translation>Etiquetar en este orden</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Imagen</translation>
    </message>
    <message>
        <source>Uncertainty</source>
        <translation>Incertidumbre</translation>
    </message>
    <message>
        <source>Mean entropy</source>
        <translation>Entropía media</translation>
    </message>
    <message>
        <source>Near the threshold</source>
        <translation>Cerca del umbral</translation>
    </message>
    <message>
        <source>How unsure the model is about the image, from 0 (sure) to 1</source>
        <translation>Cuánto duda el modelo sobre la imagen, de 0 (seguro) a 1</translation>
    </message>
    <message>
        <source>Mean per-pixel entropy of the crack probability (1 = a coin toss everywhere)</source>
        <translation>Entropía media por píxel de la probabilidad de fisura (1 = cara o cruz en todas partes)</translation>
    </message>
    <message>
        <source>Share of pixels whose probability lies close to the model&apos;s threshold</source>
        <translation>Proporción de píxeles cuya probabilidad está cerca del umbral del modelo</translation>
    </message>
    <message>
        <source>Choose a model, then rank the unlabelled images: the ones the model is least sure about come first.</source>
        <translation>Elija un modelo y ordene las imágenes sin etiquetar: primero van aquellas de las que el modelo está menos seguro.</translation>
    </message>
    <message>
        <source>Open a segmentation dataset first.</source>
        <translation>Abra primero un conjunto de datos de segmentación.</translation>
    </message>
    <message>
        <source>There are no unlabelled images to rank: every image has a mask or a proposal.</source>
        <translation>No hay imágenes sin etiquetar que ordenar: todas tienen una máscara o una propuesta.</translation>
    </message>
    <message>
        <source>Choose a model that can be loaded: a finished training run of the project or a model file.</source>
        <translation>Elija un modelo que se pueda cargar: un entrenamiento terminado del proyecto o un archivo de modelo.</translation>
    </message>
    <message numerus="yes">
        <source>Ranking %Ln unlabelled image(s)…</source>
        <translation>
            <numerusform>Ordenando %Ln imagen sin etiquetar…</numerusform>
            <numerusform>Ordenando %Ln imágenes sin etiquetar…</numerusform>
        </translation>
    </message>
    <message>
        <source>Ranking cancelled.</source>
        <translation>Ordenación cancelada.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln image(s) ranked, the most uncertain first. Label them in this order to help the model most.</source>
        <translation>
            <numerusform>%Ln imagen ordenada. Etiquetarla es lo que más ayuda al modelo.</numerusform>
            <numerusform>%Ln imágenes ordenadas, las más inciertas primero. Etiquételas en este orden para ayudar más al modelo.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln image(s) could not be read (listed last).</source>
        <translation>
            <numerusform>%Ln imagen no se pudo leer (va al final).</numerusform>
            <numerusform>%Ln imágenes no se pudieron leer (van al final).</numerusform>
        </translation>
    </message>
    <message>
        <source>The model ranked no image: there was nothing it could read.</source>
        <translation>El modelo no ordenó ninguna imagen: no había nada que pudiera leer.</translation>
    </message>
    <message>
        <source>The model could not read any of the unlabelled images (their reasons are in the list).</source>
        <translation>El modelo no pudo leer ninguna de las imágenes sin etiquetar (los motivos están en la lista).</translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelSession</name>
    <message>
        <source>The region around the click reaches the edge of the image: close it with a line first.</source>
        <translation>La región alrededor del clic llega al borde de la imagen: ciérrela antes con una línea.</translation>
    </message>
    <message>
        <source>The region around the click is too large to fill: close it with a line nearer the click.</source>
        <translation>La región alrededor del clic es demasiado grande para rellenarla: ciérrela con una línea más cerca del clic.</translation>
    </message>
    <message>
        <source>The click is on a label already: fill starts on an unlabelled pixel.</source>
        <translation>El clic ya está sobre una etiqueta: el relleno empieza en un píxel sin etiquetar.</translation>
    </message>
    <message>
        <source>The click is outside the image.</source>
        <translation>El clic está fuera de la imagen.</translation>
    </message>
    <message>
        <source>The region is too large to change at once: mark it region by region.</source>
        <translation>La región es demasiado grande para cambiarla de una vez: márquela por partes.</translation>
    </message>
    <message>
        <source>Could not apply “%1” to the labels of %2.</source>
        <translation>No se pudo aplicar «%1» a las etiquetas de %2.</translation>
    </message>
    <message>
        <source>Could not save the labels of %1.</source>
        <translation>No se pudieron guardar las etiquetas de %1.</translation>
    </message>
    <message>
        <source>Could not propose labels for %1.</source>
        <translation>No se pudieron proponer etiquetas para %1.</translation>
    </message>
    <message>
        <source>Propose labels</source>
        <translation>Proponer etiquetas</translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelStatusModel</name>
    <message>
        <source>Labelled</source>
        <translation>Etiquetada</translation>
    </message>
    <message>
        <source>Proposed</source>
        <translation>Propuesta</translation>
    </message>
    <message>
        <source>Unlabelled</source>
        <translation>Sin etiquetar</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Imagen</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Etiqueta</translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelStatusPanel</name>
    <message>
        <source>&amp;Show:</source>
        <translation>&amp;Mostrar:</translation>
    </message>
    <message>
        <source>All images</source>
        <translation>Todas las imágenes</translation>
    </message>
    <message>
        <source>Labelled</source>
        <translation>Etiquetadas</translation>
    </message>
    <message>
        <source>Proposed</source>
        <translation>Propuestas</translation>
    </message>
    <message>
        <source>Unlabelled</source>
        <translation>Sin etiquetar</translation>
    </message>
    <message>
        <source>Label…</source>
        <translation>Etiquetar…</translation>
    </message>
    <message>
        <source>Open the selected image for labelling; the images after it in this list follow</source>
        <translation>Abre la imagen seleccionada para etiquetarla; después vienen las imágenes que la siguen en esta lista</translation>
    </message>
    <message>
        <source>Rank unlabelled images…</source>
        <translation>Ordenar imágenes sin etiquetar…</translation>
    </message>
    <message>
        <source>Let a trained model say which unlabelled images it is least sure about: labelling those first helps it most</source>
        <translation>Deja que un modelo entrenado diga de qué imágenes sin etiquetar está menos seguro: etiquetarlas primero es lo que más le ayuda</translation>
    </message>
    <message>
        <source>This folder has no images/ subfolder. A segmentation dataset keeps its images in images/ and their masks, with the same names, in masks/.</source>
        <translation>Esta carpeta no tiene la subcarpeta images/. Un conjunto de datos de segmentación guarda sus imágenes en images/ y sus máscaras, con los mismos nombres, en masks/.</translation>
    </message>
    <message>
        <source>Looking at the labels…</source>
        <translation>Revisando las etiquetas…</translation>
    </message>
    <message>
        <source>The labels of this folder cannot be listed: %1</source>
        <translation>No se pueden listar las etiquetas de esta carpeta: %1</translation>
    </message>
    <message>
        <source>Open a segmentation dataset (a folder with images/ and masks/) to see which images are labelled.</source>
        <translation>Abra un conjunto de datos de segmentación (una carpeta con images/ y masks/) para ver qué imágenes están etiquetadas.</translation>
    </message>
    <message>
        <source>The images/ folder holds no images.</source>
        <translation>La carpeta images/ no contiene imágenes.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln labelled</source>
        <translation>
            <numerusform>%Ln etiquetada</numerusform>
            <numerusform>%Ln etiquetadas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln proposed</source>
        <translation>
            <numerusform>%Ln propuesta</numerusform>
            <numerusform>%Ln propuestas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln unlabelled</source>
        <translation>
            <numerusform>%Ln sin etiquetar</numerusform>
            <numerusform>%Ln sin etiquetar</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::LabelTool</name>
    <message>
        <source>Crack line</source>
        <translation>Línea de fisura</translation>
    </message>
    <message>
        <source>Fill</source>
        <translation>Relleno</translation>
    </message>
    <message>
        <source>Eraser</source>
        <translation>Borrador</translation>
    </message>
    <message>
        <source>Brush</source>
        <translation>Pincel</translation>
    </message>
    <message>
        <source>Crack-free region</source>
        <translation>Zona sin fisuras</translation>
    </message>
</context>
<context>
    <name>fisura::ui::MeasurePanel</name>
    <message>
        <source>Crack measurement</source>
        <translation>Medición de fisuras</translation>
    </message>
    <message>
        <source>Measures the selected map layer.</source>
        <translation>Mide la capa de mapa seleccionada.</translation>
    </message>
    <message>
        <source>Map: %1</source>
        <translation>Mapa: %1</translation>
    </message>
    <message>
        <source>Pixel size</source>
        <translation>Tamaño de píxel</translation>
    </message>
    <message>
        <source>from the files</source>
        <translation>de los archivos</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Umbral</translation>
    </message>
    <message>
        <source>%1 below</source>
        <translation>%1 por debajo de</translation>
    </message>
    <message>
        <source>Measure cracks</source>
        <translation>Medir fisuras</translation>
    </message>
    <message>
        <source>Count the cracks of the selected map and measure their length and width</source>
        <translation>Contar las fisuras del mapa seleccionado y medir su longitud y anchura</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Colour cracks by width class</source>
        <translation>Colorear las fisuras por clase de anchura</translation>
    </message>
    <message>
        <source>CSV…</source>
        <translation>CSV…</translation>
    </message>
    <message>
        <source>Cracks, branches and totals as CSV</source>
        <translation>Fisuras, ramas y totales en CSV</translation>
    </message>
    <message>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <source>Everything measured as JSON</source>
        <translation>Todo lo medido en JSON</translation>
    </message>
    <message>
        <source>PDF report…</source>
        <translation>Informe PDF…</translation>
    </message>
    <message>
        <source>An inspection report in the language in force</source>
        <translation>Un informe de inspección en el idioma en uso</translation>
    </message>
    <message>
        <source>Cracks</source>
        <translation>Fisuras</translation>
    </message>
    <message>
        <source>Plots</source>
        <translation>Gráficos</translation>
    </message>
    <message>
        <source>Add a probability map or mask as a layer first, and select it.</source>
        <translation>Añada primero un mapa de probabilidad o una máscara como capa y selecciónela.</translation>
    </message>
    <message>
        <source>The class limits must rise from one class to the next.</source>
        <translation>Los límites de clase deben crecer de una clase a la siguiente.</translation>
    </message>
    <message>
        <source>Measuring the cracks of %1…</source>
        <translation>Midiendo las fisuras de %1…</translation>
    </message>
    <message numerus="yes">
        <source>Measured %n crack(s).</source>
        <translation>
            <numerusform>Se midió %n fisura.</numerusform>
            <numerusform>Se midieron %n fisuras.</numerusform>
        </translation>
    </message>
    <message>
        <source>The measurement was cancelled.</source>
        <translation>Se canceló la medición.</translation>
    </message>
    <message>
        <source>The measurement failed: %1</source>
        <translation>La medición falló: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n crack(s)</source>
        <translation>
            <numerusform>%n fisura</numerusform>
            <numerusform>%n fisuras</numerusform>
        </translation>
    </message>
    <message>
        <source>total length %1</source>
        <translation>longitud total %1</translation>
    </message>
    <message>
        <source>No pixel size: lengths and widths in pixels, no width classes.</source>
        <translation>Sin tamaño de píxel: longitudes y anchuras en píxeles, sin clases de anchura.</translation>
    </message>
    <message>
        <source>Writing the report…</source>
        <translation>Escribiendo el informe…</translation>
    </message>
    <message>
        <source>The report could not be written: %1</source>
        <translation>No se pudo escribir el informe: %1</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>Guardado %1.</translation>
    </message>
    <message>
        <source>CSV files</source>
        <translation>Archivos CSV</translation>
    </message>
    <message>
        <source>JSON files</source>
        <translation>Archivos JSON</translation>
    </message>
    <message>
        <source>PDF files</source>
        <translation>Archivos PDF</translation>
    </message>
    <message>
        <source>Export measurement</source>
        <translation>Exportar la medición</translation>
    </message>
    <message>
        <source>The export failed: %1</source>
        <translation>La exportación falló: %1</translation>
    </message>
    <message>
        <source>Width classes</source>
        <translation>Clases de anchura</translation>
    </message>
    <message>
        <source>The width classes could not be shown: %1</source>
        <translation>No se pudieron mostrar las clases de anchura: %1</translation>
    </message>
    <message>
        <source>GIS / CAD…</source>
        <translation>SIG / CAD…</translation>
    </message>
    <message>
        <source>Crack centre lines with widths and width classes for GIS and CAD: GeoPackage, GeoJSON, Shapefile or DXF (georeferenced when the scan is a GeoTIFF)</source>
        <translation>Ejes de las fisuras con anchos y clases de anchura para SIG y CAD: GeoPackage, GeoJSON, Shapefile o DXF (georreferenciados cuando el escaneo es un GeoTIFF)</translation>
    </message>
    <message>
        <source>GeoPackage</source>
        <translation>GeoPackage</translation>
    </message>
    <message>
        <source>GeoJSON</source>
        <translation>GeoJSON</translation>
    </message>
    <message>
        <source>Shapefile</source>
        <translation>Shapefile</translation>
    </message>
    <message>
        <source>DXF drawing</source>
        <translation>Dibujo DXF</translation>
    </message>
    <message>
        <source>Upper limits:</source>
        <translation>Límites superiores:</translation>
    </message>
    <message>
        <source>Writing the crack overlay…</source>
        <translation>Escribiendo la capa de fisuras…</translation>
    </message>
    <message>
        <source>Crack overlay, RGBA GeoTIFF</source>
        <translation>Capa de fisuras, GeoTIFF RGBA</translation>
    </message>
</context>
<context>
    <name>fisura::ui::MeasurePlots</name>
    <message>
        <source>Total length (mm)</source>
        <translation>Longitud total (mm)</translation>
    </message>
    <message>
        <source>Total length (m)</source>
        <translation>Longitud total (m)</translation>
    </message>
    <message>
        <source>Width (mm)</source>
        <translation>Anchura (mm)</translation>
    </message>
    <message>
        <source>Width (px)</source>
        <translation>Anchura (px)</translation>
    </message>
    <message>
        <source>Crack length (mm)</source>
        <translation>Longitud de fisura (mm)</translation>
    </message>
    <message>
        <source>Crack length (px)</source>
        <translation>Longitud de fisura (px)</translation>
    </message>
    <message>
        <source>Width class</source>
        <translation>Clase de anchura</translation>
    </message>
</context>
<context>
    <name>fisura::ui::MeasureReport</name>
    <message>
        <source>Crack inspection report</source>
        <translation>Informe de inspección de fisuras</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Scan and model</source>
        <translation>Imagen y modelo</translation>
    </message>
    <message>
        <source>Scan</source>
        <translation>Imagen</translation>
    </message>
    <message>
        <source>Crack map</source>
        <translation>Mapa de fisuras</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>%1 × %2 px</source>
        <translation>%1 × %2 px</translation>
    </message>
    <message>
        <source>entered by the user</source>
        <translation>introducido por el usuario</translation>
    </message>
    <message>
        <source>from the map&apos;s resolution tags</source>
        <translation>de las etiquetas de resolución del mapa</translation>
    </message>
    <message>
        <source>from the scan&apos;s resolution tags</source>
        <translation>de las etiquetas de resolución de la imagen</translation>
    </message>
    <message>
        <source>Pixel size</source>
        <translation>Tamaño de píxel</translation>
    </message>
    <message>
        <source>%1 mm (%2)</source>
        <translation>%1 mm (%2)</translation>
    </message>
    <message>
        <source>unknown: lengths and widths in pixels, no width classes</source>
        <translation>desconocido: longitudes y anchuras en píxeles, sin clases de anchura</translation>
    </message>
    <message>
        <source>Scanned area</source>
        <translation>Superficie inspeccionada</translation>
    </message>
    <message>
        <source>%1 × %2 m</source>
        <translation>%1 × %2 m</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>no registrado</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Umbral</translation>
    </message>
    <message>
        <source>crack probability %1</source>
        <translation>probabilidad de fisura %1</translation>
    </message>
    <message>
        <source>Report date</source>
        <translation>Fecha del informe</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Vista general</translation>
    </message>
    <message>
        <source>Crack pixels in red; each crack&apos;s box in the colour of its width class, with its number in the table.</source>
        <translation>Píxeles de fisura en rojo; el recuadro de cada fisura en el color de su clase de anchura, con su número en la tabla.</translation>
    </message>
    <message>
        <source>Totals</source>
        <translation>Totales</translation>
    </message>
    <message>
        <source>Cracks</source>
        <translation>Fisuras</translation>
    </message>
    <message>
        <source>Branches</source>
        <translation>Ramas</translation>
    </message>
    <message>
        <source>Total length</source>
        <translation>Longitud total</translation>
    </message>
    <message>
        <source>Cracked area</source>
        <translation>Área fisurada</translation>
    </message>
    <message>
        <source>%1 mm²</source>
        <translation>%1 mm²</translation>
    </message>
    <message>
        <source>%1 px</source>
        <translation>%1 px</translation>
    </message>
    <message>
        <source>Cracked fraction of the surface</source>
        <translation>Fracción fisurada de la superficie</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Crack density</source>
        <translation>Densidad de fisuración</translation>
    </message>
    <message>
        <source>%1 m/m²</source>
        <translation>%1 m/m²</translation>
    </message>
    <message>
        <source>Totals by width class</source>
        <translation>Totales por clase de anchura</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Clase</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>Anchura</translation>
    </message>
    <message>
        <source>Widths</source>
        <translation>Anchuras</translation>
    </message>
    <message>
        <source>Width histogram: crack length at each width.</source>
        <translation>Histograma de anchuras: longitud de fisura en cada anchura.</translation>
    </message>
    <message>
        <source>Total crack length per width class.</source>
        <translation>Longitud total de fisura por clase de anchura.</translation>
    </message>
    <message>
        <source>mm</source>
        <translation>mm</translation>
    </message>
    <message>
        <source>px</source>
        <translation>px</translation>
    </message>
    <message>
        <source>No.</source>
        <translation>N.º</translation>
    </message>
    <message>
        <source>Length (%1)</source>
        <translation>Longitud (%1)</translation>
    </message>
    <message>
        <source>Width (%1)</source>
        <translation>Anchura (%1)</translation>
    </message>
    <message>
        <source>Max. width (%1)</source>
        <translation>Anchura máx. (%1)</translation>
    </message>
    <message>
        <source>Angle (°)</source>
        <translation>Ángulo (°)</translation>
    </message>
    <message>
        <source>Position (px)</source>
        <translation>Posición (px)</translation>
    </message>
    <message>
        <source>The %1 first of %2 cracks; the CSV export lists them all.</source>
        <translation>Las %1 primeras de %2 fisuras; la exportación CSV las incluye todas.</translation>
    </message>
    <message>
        <source>No cracks were found at this threshold.</source>
        <translation>No se encontraron fisuras con este umbral.</translation>
    </message>
    <message>
        <source>Width: median over the crack&apos;s centre line. Angle: 0° horizontal, counter-clockwise. Position: top-left corner of the crack&apos;s box.</source>
        <translation>Anchura: mediana a lo largo del eje de la fisura. Ángulo: 0° horizontal, en sentido antihorario. Posición: esquina superior izquierda del recuadro de la fisura.</translation>
    </message>
    <message>
        <source>Settings used</source>
        <translation>Parámetros utilizados</translation>
    </message>
    <message>
        <source>Gap closing</source>
        <translation>Cierre de huecos</translation>
    </message>
    <message>
        <source>disk of %1 px radius</source>
        <translation>disco de %1 px de radio</translation>
    </message>
    <message>
        <source>Smallest crack kept</source>
        <translation>Fisura más pequeña conservada</translation>
    </message>
    <message>
        <source>Class decided by</source>
        <translation>Clase según</translation>
    </message>
    <message>
        <source>mean width</source>
        <translation>anchura media</translation>
    </message>
    <message>
        <source>maximum width</source>
        <translation>anchura máxima</translation>
    </message>
    <message>
        <source>median width</source>
        <translation>anchura mediana</translation>
    </message>
    <message>
        <source>Class limits</source>
        <translation>Límites de clase</translation>
    </message>
    <message>
        <source>%1 mm</source>
        <translation>%1 mm</translation>
    </message>
    <message>
        <source>Centre lines</source>
        <translation>Ejes</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>Longitud</translation>
    </message>
    <message>
        <source>along the centre line, corner-corrected chain code (Vossepoel and Smeulders, 1982)</source>
        <translation>a lo largo del eje, código de cadena con corrección de esquinas (Vossepoel y Smeulders, 1982)</translation>
    </message>
    <message>
        <source>Measured in</source>
        <translation>Medido en</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Software</source>
        <translation>Programa</translation>
    </message>
    <message>
        <source>Over limit</source>
        <translation>Supera el límite</translation>
    </message>
    <message>
        <source>OVER</source>
        <translation>SUPERA</translation>
    </message>
    <message>
        <source>Standard</source>
        <translation>Norma</translation>
    </message>
    <message>
        <source>Over the tolerable width</source>
        <translation>Por encima de la anchura tolerable</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %Ln crack(s) (marked OVER in the crack table)</source>
        <translation>
            <numerusform>%1 de %Ln fisura (marcada SUPERA en la tabla de fisuras)</numerusform>
            <numerusform>%1 de %Ln fisuras (marcadas SUPERA en la tabla de fisuras)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::MeasureText</name>
    <message>
        <source>Hairline</source>
        <translation>Capilar</translation>
    </message>
    <message>
        <source>Fine</source>
        <translation>Fina</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Media</translation>
    </message>
    <message>
        <source>Wide</source>
        <translation>Ancha</translation>
    </message>
    <message>
        <source>The width class limits depend on the standard in force (inspection manual, contract); check them before reporting.</source>
        <translation>Los límites de las clases de anchura dependen de la norma vigente (manual de inspección, contrato); compruébelos antes de informar.</translation>
    </message>
    <message>
        <source>&lt; %1 mm</source>
        <translation>&lt; %1 mm</translation>
    </message>
    <message>
        <source>≥ %1 mm</source>
        <translation>≥ %1 mm</translation>
    </message>
    <message>
        <source>%1 – %2 mm</source>
        <translation>%1 – %2 mm</translation>
    </message>
    <message>
        <source>%1 mm</source>
        <translation>%1 mm</translation>
    </message>
    <message>
        <source>%1 px</source>
        <translation>%1 px</translation>
    </message>
    <message>
        <source>Within limit</source>
        <translation>Dentro del límite</translation>
    </message>
    <message>
        <source>Over limit</source>
        <translation>Supera el límite</translation>
    </message>
    <message>
        <source>dry air or protective membrane</source>
        <translation>aire seco o membrana protectora</translation>
    </message>
    <message>
        <source>humidity, moist air, soil</source>
        <translation>humedad, aire húmedo, suelo</translation>
    </message>
    <message>
        <source>de-icing chemicals</source>
        <translation>productos químicos descongelantes</translation>
    </message>
    <message>
        <source>seawater and seawater spray, wetting and drying</source>
        <translation>agua de mar y salpicaduras de agua de mar, humectación y secado</translation>
    </message>
    <message>
        <source>water-retaining structures</source>
        <translation>estructuras de retención de agua</translation>
    </message>
    <message>
        <source>exposure X0, XC1</source>
        <translation>exposición X0, XC1</translation>
    </message>
    <message>
        <source>exposure XC2–XC4, XD, XS, reinforced members</source>
        <translation>exposición XC2–XC4, XD, XS, elementos armados</translation>
    </message>
    <message>
        <source>prestressed members with bonded tendons</source>
        <translation>elementos pretensados con armaduras adherentes</translation>
    </message>
    <message>
        <source>ACI 224R-01, Table 4.1</source>
        <translation>ACI 224R-01, tabla 4.1</translation>
    </message>
    <message>
        <source>EN 1992-1-1, Table 7.1N</source>
        <translation>EN 1992-1-1, tabla 7.1N</translation>
    </message>
    <message>
        <source>Fisura (hairline, fine, medium, wide)</source>
        <translation>Fisura (capilar, fina, media, ancha)</translation>
    </message>
    <message>
        <source>Custom limits</source>
        <translation>Límites propios</translation>
    </message>
    <message>
        <source>ACI 224R-01: %1</source>
        <translation>ACI 224R-01: %1</translation>
    </message>
    <message>
        <source>EN 1992-1-1: %1</source>
        <translation>EN 1992-1-1: %1</translation>
    </message>
    <message>
        <source>Fisura&apos;s classes: hairline below %1 mm, fine below %2 mm, medium below %3 mm, wide from there</source>
        <translation>Clases de Fisura: capilar por debajo de %1 mm, fina por debajo de %2 mm, media por debajo de %3 mm, ancha a partir de ahí</translation>
    </message>
    <message>
        <source>%1: tolerable %2 mm (%3)</source>
        <translation>%1: anchura tolerable %2 mm (%3)</translation>
    </message>
</context>
<context>
    <name>fisura::ui::MemoryBar</name>
    <message>
        <source>Used on the device: %1 GiB of %2 GiB
Fisura tensors: %3 GiB
Held by Fisura&apos;s memory cache: %4 GiB</source>
        <translation>En uso en el dispositivo: %1 GiB de %2 GiB
Tensores de Fisura: %3 GiB
Retenido por la caché de memoria de Fisura: %4 GiB</translation>
    </message>
    <message>
        <source>%1 / %2 GiB</source>
        <translation>%1 / %2 GiB</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ModelChooser</name>
    <message>
        <source>Choose a model</source>
        <translation>Elegir un modelo</translation>
    </message>
    <message>
        <source>Models (*.fisura *.pt *.pth *.ts);;All files (*)</source>
        <translation>Modelos (*.fisura *.pt *.pth *.ts);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modelo:</translation>
    </message>
    <message>
        <source>Model file…</source>
        <translation>Archivo de modelo…</translation>
    </message>
    <message>
        <source>A Fisura model, or a TorchScript module exported from PyTorch with its JSON sidecar (model.pt.json)</source>
        <translation>Un modelo de Fisura, o un módulo TorchScript exportado desde PyTorch con su archivo JSON adjunto (model.pt.json)</translation>
    </message>
    <message>
        <source>No trained model yet: choose a model file</source>
        <translation>Aún no hay un modelo entrenado: elija un archivo de modelo</translation>
    </message>
    <message>
        <source>No model of this project is chosen: Fisura&apos;s starter model is used. Label a few of your images and train starting from it to make it your own.</source>
        <translation>No hay ningún modelo del proyecto elegido: se usa el modelo inicial de Fisura. Etiquete algunas de sus imágenes y entrene partiendo de él para hacerlo suyo.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ModelConsent</name>
    <message>
        <source>Run code from this file?</source>
        <translation>¿Ejecutar código de este archivo?</translation>
    </message>
    <message>
        <source>“%1” is a TorchScript module.</source>
        <translation>«%1» es un módulo TorchScript.</translation>
    </message>
    <message>
        <source>A TorchScript module runs code stored in the file, with your permissions. Use it only when it comes from someone you trust.

%1</source>
        <translation>Un módulo TorchScript ejecuta código guardado en el archivo, con sus permisos. Úselo solo si procede de alguien de confianza.

%1</translation>
    </message>
    <message>
        <source>Run code from this file</source>
        <translation>Ejecutar código de este archivo</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ModelFactsWidget</name>
    <message>
        <source>Model file:</source>
        <translation>Archivo del modelo:</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>Tipo:</translation>
    </message>
    <message>
        <source>Input:</source>
        <translation>Entrada:</translation>
    </message>
    <message>
        <source>Normalization:</source>
        <translation>Normalización:</translation>
    </message>
    <message>
        <source>Threshold:</source>
        <translation>Umbral:</translation>
    </message>
    <message>
        <source>Tiles:</source>
        <translation>Teselas:</translation>
    </message>
    <message>
        <source>What the sidecar file says:</source>
        <translation>Lo que dice el archivo adjunto:</translation>
    </message>
    <message>
        <source>No model chosen</source>
        <translation>Ningún modelo elegido</translation>
    </message>
    <message>
        <source>imported TorchScript module</source>
        <translation>módulo TorchScript importado</translation>
    </message>
    <message>
        <source>Fisura model</source>
        <translation>modelo de Fisura</translation>
    </message>
    <message>
        <source>Crack segmentation (U-Net), %1</source>
        <translation>Segmentación de fisuras (U-Net), %1</translation>
    </message>
    <message>
        <source>crack probability %1</source>
        <translation>probabilidad de fisura %1</translation>
    </message>
    <message>
        <source>Crack classifier, %1</source>
        <translation>Clasificador de fisuras, %1</translation>
    </message>
    <message>
        <source>Anomaly autoencoder, %1</source>
        <translation>Autocodificador de anomalías, %1</translation>
    </message>
    <message>
        <source>reconstruction error %1</source>
        <translation>error de reconstrucción %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 × %1 px, %n channel(s)</source>
        <translation>
            <numerusform>%1 × %1 px, %n canal</numerusform>
            <numerusform>%1 × %1 px, %n canales</numerusform>
        </translation>
    </message>
    <message>
        <source>mean %1 · std %2</source>
        <translation>media %1 · desviación %2</translation>
    </message>
    <message>
        <source>%1 px</source>
        <translation>%1 px</translation>
    </message>
    <message>
        <source>chosen for the input size</source>
        <translation>elegida según el tamaño de entrada</translation>
    </message>
    <message>
        <source>chosen for the model type</source>
        <translation>elegido según el tipo de modelo</translation>
    </message>
    <message>
        <source>tile %1, overlap %2</source>
        <translation>tesela %1, solapamiento %2</translation>
    </message>
    <message>
        <source>This model cannot be used: %1</source>
        <translation>Este modelo no se puede usar: %1</translation>
    </message>
    <message>
        <source>Anomaly patch statistics (PaDiM), %1</source>
        <translation>Estadística de parches para anomalías (PaDiM), %1</translation>
    </message>
    <message>
        <source>Mahalanobis distance %1</source>
        <translation>distancia de Mahalanobis %1</translation>
    </message>
    <message>
        <source>Trained on:</source>
        <translation>Entrenado con:</translation>
    </message>
    <message>
        <source>Licence:</source>
        <translation>Licencia:</translation>
    </message>
    <message>
        <source>Held-out scores:</source>
        <translation>Resultados en datos no vistos:</translation>
    </message>
    <message>
        <source>fine-tuned from %1</source>
        <translation>ajustado a partir de %1</translation>
    </message>
</context>
<context>
    <name>fisura::ui::PeerRanks</name>
    <message>
        <source>The options for the other GPUs cannot be written to %1: %2</source>
        <translation>No se pueden escribir las opciones para las demás GPU en %1: %2</translation>
    </message>
</context>
<context>
    <name>fisura::ui::PolicyPreview</name>
    <message>
        <source>What Fisura will do</source>
        <translation>Lo que hará Fisura</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>Ajuste</translation>
    </message>
    <message>
        <source>Choice</source>
        <translation>Elección</translation>
    </message>
    <message>
        <source>Looking at this computer…</source>
        <translation>Examinando este equipo…</translation>
    </message>
    <message>
        <source>Measured on this GPU: batches of %1 images.</source>
        <translation>Medido en esta GPU: lotes de %1 imágenes.</translation>
    </message>
    <message>
        <source>The batch size is a first guess: when training starts, Fisura measures the fastest batch that fits on the GPU.</source>
        <translation>El tamaño de lote es una primera estimación: al empezar el entrenamiento, Fisura mide el lote más rápido que cabe en la GPU.</translation>
    </message>
    <message>
        <source>Training runs on the processor: slower than a GPU, same results.</source>
        <translation>El entrenamiento se ejecuta en el procesador: más lento que en una GPU, con los mismos resultados.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ProjectActions</name>
    <message>
        <source>Generating the demo project…</source>
        <translation>Generando el proyecto de demostración…</translation>
    </message>
    <message>
        <source>&amp;New project…</source>
        <translation>&amp;Nuevo proyecto…</translation>
    </message>
    <message>
        <source>Create a project folder that keeps datasets, runs, models and maps</source>
        <translation>Crea una carpeta de proyecto que guarda conjuntos de datos, entrenamientos, modelos y mapas</translation>
    </message>
    <message>
        <source>&amp;Open project…</source>
        <translation>&amp;Abrir proyecto…</translation>
    </message>
    <message>
        <source>Open a project folder</source>
        <translation>Abre una carpeta de proyecto</translation>
    </message>
    <message>
        <source>Save project &amp;as…</source>
        <translation>Guardar proyecto &amp;como…</translation>
    </message>
    <message>
        <source>Copy the project to another folder and continue there</source>
        <translation>Copia el proyecto a otra carpeta y sigue trabajando allí</translation>
    </message>
    <message>
        <source>&amp;Close project</source>
        <translation>&amp;Cerrar proyecto</translation>
    </message>
    <message>
        <source>Open &amp;demo project</source>
        <translation>Abrir proyecto de &amp;demostración</translation>
    </message>
    <message>
        <source>A ready-made project with generated crack images, to try Fisura</source>
        <translation>Un proyecto listo con imágenes de fisuras generadas, para probar Fisura</translation>
    </message>
    <message>
        <source>&amp;Recent projects</source>
        <translation>Proyectos &amp;recientes</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>New project: choose an empty folder</source>
        <translation>Nuevo proyecto: elija una carpeta vacía</translation>
    </message>
    <message>
        <source>Could not create a project in %1.</source>
        <translation>No se pudo crear un proyecto en %1.</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>Abrir proyecto</translation>
    </message>
    <message>
        <source>Could not open the project in %1.</source>
        <translation>No se pudo abrir el proyecto en %1.</translation>
    </message>
    <message>
        <source>Save project as: choose an empty folder</source>
        <translation>Guardar proyecto como: elija una carpeta vacía</translation>
    </message>
    <message>
        <source>Could not save the project to %1.</source>
        <translation>No se pudo guardar el proyecto en %1.</translation>
    </message>
    <message>
        <source>Could not create the demo project.</source>
        <translation>No se pudo crear el proyecto de demostración.</translation>
    </message>
    <message>
        <source>It was saved by a newer version of Fisura (project schema %1; this version reads schema %2). Update Fisura to open it; the project is left as it is.</source>
        <translation>Lo guardó una versión más reciente de Fisura (esquema de proyecto %1; esta versión lee el esquema %2). Actualice Fisura para abrirlo; el proyecto queda como está.</translation>
    </message>
    <message>
        <source>Some files of this project are not where the project expects them (moved or deleted). Everything else works; put them back or remove what refers to them:</source>
        <translation>Algunos archivos de este proyecto no están donde el proyecto los espera (movidos o borrados). Todo lo demás funciona; vuelva a ponerlos en su sitio o quite lo que se refiere a ellos:</translation>
    </message>
    <message>
        <source>dataset</source>
        <translation>conjunto de datos</translation>
    </message>
    <message>
        <source>split</source>
        <translation>división</translation>
    </message>
    <message>
        <source>model</source>
        <translation>modelo</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>punto de control</translation>
    </message>
    <message>
        <source>scan</source>
        <translation>escaneo</translation>
    </message>
    <message>
        <source>map</source>
        <translation>mapa</translation>
    </message>
    <message>
        <source>ground truth</source>
        <translation>referencia</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ProjectContents</name>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Detalles</translation>
    </message>
    <message>
        <source>No project is open.</source>
        <translation>No hay ningún proyecto abierto.</translation>
    </message>
    <message>
        <source>Datasets (%1)</source>
        <translation>Conjuntos de datos (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n image(s)</source>
        <translation>
            <numerusform>%n imagen</numerusform>
            <numerusform>%n imágenes</numerusform>
        </translation>
    </message>
    <message>
        <source>folder not found</source>
        <translation>carpeta no encontrada</translation>
    </message>
    <message>
        <source>Scans (%1)</source>
        <translation>Escaneos (%1)</translation>
    </message>
    <message>
        <source>%1 × %2 px</source>
        <translation>%1 × %2 px</translation>
    </message>
    <message>
        <source>crack map</source>
        <translation>mapa de fisuras</translation>
    </message>
    <message>
        <source>no map</source>
        <translation>sin mapa</translation>
    </message>
    <message>
        <source>ground truth</source>
        <translation>referencia</translation>
    </message>
    <message>
        <source>analysed %1</source>
        <translation>analizado el %1</translation>
    </message>
    <message>
        <source>file not found</source>
        <translation>archivo no encontrado</translation>
    </message>
    <message>
        <source>Map: %1</source>
        <translation>Mapa: %1</translation>
    </message>
    <message>
        <source>This project has no datasets or scans yet: add a dataset in the Train pane, scans in the Analyze pane.</source>
        <translation>Este proyecto aún no tiene conjuntos de datos ni escaneos: añada un conjunto de datos en el panel Entrenar y escaneos en el panel Analizar.</translation>
    </message>
    <message>
        <source>Select a dataset to browse its images; double-click a scan to open it in Inspect.</source>
        <translation>Seleccione un conjunto de datos para ver sus imágenes; haga doble clic en un escaneo para abrirlo en Inspeccionar.</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>%1, no date</source>
        <translation>%1, sin fecha</translation>
    </message>
    <message>
        <source>Double-click to open the scan in Inspect; right-click for its structure, date and timeline</source>
        <translation>Doble clic para abrir la imagen en Inspeccionar; clic derecho para su estructura, fecha y evolución</translation>
    </message>
    <message>
        <source>Timeline of %1</source>
        <translation>Evolución de %1</translation>
    </message>
    <message>
        <source>Structure and date…</source>
        <translation>Estructura y fecha…</translation>
    </message>
    <message>
        <source>Timeline of %1…</source>
        <translation>Evolución de %1…</translation>
    </message>
    <message>
        <source>Structure and date</source>
        <translation>Estructura y fecha</translation>
    </message>
    <message>
        <source>e.g. Bridge 12, soffit</source>
        <translation>p. ej. Puente 12, intradós</translation>
    </message>
    <message>
        <source>Scanned on</source>
        <translation>Fotografiada el</translation>
    </message>
    <message>
        <source>Structure</source>
        <translation>Estructura</translation>
    </message>
</context>
<context>
    <name>fisura::ui::RunName</name>
    <message>
        <source>Run %1</source>
        <translation>Ejecución %1</translation>
    </message>
    <message>
        <source>Run %1 · %2</source>
        <translation>Ejecución %1 · %2</translation>
    </message>
</context>
<context>
    <name>fisura::ui::RunsList</name>
    <message>
        <source>segment</source>
        <translation>segmentar</translation>
    </message>
    <message>
        <source>classify</source>
        <translation>clasificar</translation>
    </message>
    <message>
        <source>anomaly</source>
        <translation>anomalías</translation>
    </message>
    <message>
        <source>running</source>
        <translation>en curso</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>terminado</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>cancelado</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>en pausa</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fallido</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Conjunto de datos</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Tarea</translation>
    </message>
    <message>
        <source>Best score</source>
        <translation>Mejor puntuación</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>interrumpido</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ejecución</translation>
    </message>
</context>
<context>
    <name>fisura::ui::SeriesTimeline</name>
    <message>
        <source>Measuring the crack maps of %1…</source>
        <translation>Midiendo los mapas de fisuras de %1…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Cancelado.</translation>
    </message>
    <message>
        <source>No scan of %1 has both a date and a crack map: give the scans their dates (right-click a scan).</source>
        <translation>Ninguna imagen de %1 tiene a la vez fecha y mapa de fisuras: indique las fechas de las imágenes (clic derecho en una imagen).</translation>
    </message>
    <message>
        <source>The timeline could not be measured: %1</source>
        <translation>No se pudo medir la evolución: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n date(s).</source>
        <translation>
            <numerusform>%n fecha.</numerusform>
            <numerusform>%n fechas.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n date(s); %1 left out (no date or no map).</source>
        <translation>
            <numerusform>%n fecha; %1 sin incluir (sin fecha o sin mapa).</numerusform>
            <numerusform>%n fechas; %1 sin incluir (sin fecha o sin mapa).</numerusform>
        </translation>
    </message>
    <message>
        <source>Timeline of %1</source>
        <translation>Evolución de %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>mm</source>
        <translation>mm</translation>
    </message>
    <message>
        <source>px</source>
        <translation>px</translation>
    </message>
    <message>
        <source>mm²</source>
        <translation>mm²</translation>
    </message>
    <message>
        <source>Total length (%1)</source>
        <translation>Longitud total (%1)</translation>
    </message>
    <message>
        <source>Cracked area (%1)</source>
        <translation>Área fisurada (%1)</translation>
    </message>
    <message>
        <source>Widest crack (%1)</source>
        <translation>Fisura más ancha (%1)</translation>
    </message>
    <message>
        <source>Inspection date</source>
        <translation>Fecha de inspección</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Fecha</translation>
    </message>
    <message>
        <source>Cracks</source>
        <translation>Fisuras</translation>
    </message>
</context>
<context>
    <name>fisura::ui::SettingsCheckText</name>
    <message>
        <source>The settings file %1 could not be read, so Fisura started with its default settings.</source>
        <translation>No se pudo leer el archivo de ajustes %1, así que Fisura se ha iniciado con los ajustes predeterminados.</translation>
    </message>
    <message>
        <source>The damaged file was kept as %1; you can delete it.</source>
        <translation>El archivo dañado se ha conservado como %1; puede borrarlo.</translation>
    </message>
    <message>
        <source>Delete or rename that file so that your settings can be saved again.</source>
        <translation>Borre ese archivo o cambie su nombre para que sus ajustes puedan guardarse de nuevo.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::SettingsDialog</name>
    <message>
        <source>Preferences</source>
        <translation>Preferencias</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Idioma:</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>Idioma del sistema</translation>
    </message>
</context>
<context>
    <name>fisura::ui::StartFromBox</name>
    <message>
        <source>This model cannot be read: %1</source>
        <translation>Este modelo no se puede leer: %1</translation>
    </message>
    <message>
        <source>Fine-tunes Fisura&apos;s starter model: keeps its network (width %1, depth %2), adapts its normalisation to your images and trains %3 epochs at a lower learning rate. A handful of labelled images is enough to make it your own.</source>
        <translation>Ajusta el modelo inicial de Fisura: conserva su red (anchura %1, profundidad %2), adapta su normalización a sus imágenes y entrena %3 épocas con una tasa de aprendizaje menor. Unas pocas imágenes etiquetadas bastan para hacerlo suyo.</translation>
    </message>
    <message>
        <source>Random weights: no starter model is installed. Learning from your images alone needs many labelled images and more epochs.</source>
        <translation>Pesos aleatorios: no hay ningún modelo inicial instalado. Aprender solo de sus imágenes requiere muchas imágenes etiquetadas y más épocas.</translation>
    </message>
    <message>
        <source>Random weights: the network learns from your images alone. Needs many labelled images and more epochs.</source>
        <translation>Pesos aleatorios: la red aprende solo de sus imágenes. Requiere muchas imágenes etiquetadas y más épocas.</translation>
    </message>
    <message>
        <source>Continues from this run&apos;s model: keeps its network (width %1, depth %2), adapts its normalisation to the data and trains %3 epochs at a lower learning rate.</source>
        <translation>Continúa desde el modelo de esta ejecución: conserva su red (anchura %1, profundidad %2), adapta su normalización a los datos y entrena %3 épocas con una tasa de aprendizaje menor.</translation>
    </message>
    <message>
        <source>Start from</source>
        <translation>Partir de</translation>
    </message>
    <message>
        <source>The weights training starts from: a model that already knows cracks needs far fewer labelled images than random weights</source>
        <translation>Los pesos de los que parte el entrenamiento: un modelo que ya conoce las fisuras necesita muchas menos imágenes etiquetadas que unos pesos aleatorios</translation>
    </message>
    <message>
        <source>Starter model</source>
        <translation>Modelo inicial</translation>
    </message>
    <message>
        <source>Scratch (random weights)</source>
        <translation>Desde cero (pesos aleatorios)</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>Ejecución %1</translation>
    </message>
    <message>
        <source>Run %1 (%2)</source>
        <translation>Ejecución %1 (%2)</translation>
    </message>
</context>
<context>
    <name>fisura::ui::SystemPane</name>
    <message>
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <source>Detecting hardware…</source>
        <translation>Detectando el hardware…</translation>
    </message>
    <message numerus="yes">
        <source>CPU · %n core(s)</source>
        <translation>
            <numerusform>CPU · %n núcleo</numerusform>
            <numerusform>CPU · %n núcleos</numerusform>
        </translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Este equipo</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Elemento</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>Fisura trains and runs models on the GPU.</source>
        <translation>Fisura entrena y ejecuta los modelos en la GPU.</translation>
    </message>
    <message>
        <source>No usable GPU: Fisura runs everything on the CPU, which is slower but gives the same results. Reason: %1</source>
        <translation>No hay una GPU utilizable: Fisura lo ejecuta todo en la CPU, que es más lenta pero da los mismos resultados. Motivo: %1</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>Procesador</translation>
    </message>
    <message>
        <source>Logical cores</source>
        <translation>Núcleos lógicos</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memoria</translation>
    </message>
    <message>
        <source>%1 total, %2 available</source>
        <translation>%1 en total, %2 disponibles</translation>
    </message>
    <message>
        <source>Operating system</source>
        <translation>Sistema operativo</translation>
    </message>
    <message>
        <source>Libraries</source>
        <translation>Bibliotecas</translation>
    </message>
    <message>
        <source>CUDA build</source>
        <translation>compilación con CUDA</translation>
    </message>
    <message>
        <source>CPU build</source>
        <translation>compilación para CPU</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation>Capacidad de cómputo</translation>
    </message>
    <message>
        <source>Multiprocessors</source>
        <translation>Multiprocesadores</translation>
    </message>
    <message>
        <source>%1 total, %2 free</source>
        <translation>%1 en total, %2 libres</translation>
    </message>
    <message>
        <source>this build of Fisura uses a LibTorch without CUDA.</source>
        <translation>esta compilación de Fisura usa una LibTorch sin CUDA.</translation>
    </message>
    <message>
        <source>no NVIDIA driver is installed.</source>
        <translation>no hay ningún controlador de NVIDIA instalado.</translation>
    </message>
    <message>
        <source>the NVIDIA driver reports no usable GPU.</source>
        <translation>el controlador de NVIDIA no encuentra ninguna GPU utilizable.</translation>
    </message>
    <message>
        <source>the GPU could not be initialised.</source>
        <translation>no se pudo inicializar la GPU.</translation>
    </message>
    <message>
        <source>Live activity</source>
        <translation>Actividad en vivo</translation>
    </message>
    <message>
        <source>Release GPU memory</source>
        <translation>Liberar memoria de la GPU</translation>
    </message>
    <message>
        <source>Hand memory that Fisura keeps cached on the GPU back to the driver, for other programs</source>
        <translation>Devolver al controlador la memoria que Fisura mantiene en caché en la GPU, para otros programas</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Por qué</translation>
    </message>
    <message>
        <source>Released %1 MiB of cached GPU memory</source>
        <translation>Se liberaron %1 MiB de memoria de GPU en caché</translation>
    </message>
    <message>
        <source>There is no GPU memory to release on this computer</source>
        <translation>En este equipo no hay memoria de GPU que liberar</translation>
    </message>
    <message>
        <source>Chosen settings</source>
        <translation>Ajustes elegidos</translation>
    </message>
    <message>
        <source>for training a U-Net on %1 px images</source>
        <translation>para entrenar una U-Net con imágenes de %1 px</translation>
    </message>
    <message>
        <source>GPU figures are unavailable (the NVIDIA management library could not be loaded); processor and memory are shown.</source>
        <translation>No hay datos de la GPU (no se pudo cargar la biblioteca de gestión de NVIDIA); se muestran el procesador y la memoria.</translation>
    </message>
    <message>
        <source>There is no GPU to watch on this computer; the plot shows the processor and memory.</source>
        <translation>Este equipo no tiene GPU que observar; el gráfico muestra el procesador y la memoria.</translation>
    </message>
    <message numerus="yes">
        <source>%n CUDA device(s) usable</source>
        <translation>
            <numerusform>%n dispositivo CUDA utilizable</numerusform>
            <numerusform>%n dispositivos CUDA utilizables</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fisura::ui::TelemetryPlot</name>
    <message>
        <source>Export plot</source>
        <translation>Exportar gráfico</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>Imagen PNG (*.png)</translation>
    </message>
    <message>
        <source>Export samples</source>
        <translation>Exportar muestras</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>Tabla CSV (*.csv)</translation>
    </message>
    <message>
        <source>GPU utilization</source>
        <translation>Uso de la GPU</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>Memoria de la GPU</translation>
    </message>
    <message>
        <source>GPU power</source>
        <translation>Potencia de la GPU</translation>
    </message>
    <message>
        <source>GPU temperature</source>
        <translation>Temperatura de la GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>RAM</translation>
    </message>
    <message>
        <source>Use (%)</source>
        <translation>Uso (%)</translation>
    </message>
    <message>
        <source>Temperature (°C)</source>
        <translation>Temperatura (°C)</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reanudar</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausa</translation>
    </message>
    <message>
        <source>Last minute</source>
        <translation>Último minuto</translation>
    </message>
    <message>
        <source>Last 5 minutes</source>
        <translation>Últimos 5 minutos</translation>
    </message>
    <message>
        <source>Last 15 minutes</source>
        <translation>Últimos 15 minutos</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportar</translation>
    </message>
    <message>
        <source>Plot as PNG…</source>
        <translation>Gráfico como PNG…</translation>
    </message>
    <message>
        <source>Samples as CSV…</source>
        <translation>Muestras como CSV…</translation>
    </message>
    <message>
        <source>GPU %1 %</source>
        <translation>GPU %1 %</translation>
    </message>
    <message>
        <source>GPU memory %1 / %2 GiB</source>
        <translation>Memoria GPU %1 / %2 GiB</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>CPU %1 %</source>
        <translation>CPU %1 %</translation>
    </message>
    <message>
        <source>RAM %1 / %2 GiB</source>
        <translation>RAM %1 / %2 GiB</translation>
    </message>
    <message>
        <source>now</source>
        <translation>ahora</translation>
    </message>
    <message>
        <source>%1 s ago</source>
        <translation>hace %1 s</translation>
    </message>
    <message>
        <source>%1 min ago</source>
        <translation>hace %1 min</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TiledViewer</name>
    <message>
        <source>Open a scan to inspect it.</source>
        <translation>Abra un escaneo para inspeccionarlo.</translation>
    </message>
    <message>
        <source>%1 m</source>
        <translation>%1 m</translation>
    </message>
    <message>
        <source>%1 mm</source>
        <translation>%1 mm</translation>
    </message>
    <message>
        <source>stored %1</source>
        <translation>almacenado %1</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainController</name>
    <message>
        <source>FISURA_CLI names no program: %1. It should name fisura-cli, which trains on the other GPUs; or untick &quot;All GPUs&quot; under Advanced.</source>
        <translation>FISURA_CLI no indica ningún programa: %1. Debe indicar fisura-cli, que entrena en las demás GPU; o desmarque «Todas las GPU» en Avanzado.</translation>
    </message>
    <message>
        <source>fisura-cli, which trains on the other GPUs, was found neither next to Fisura nor on the PATH: install it, or untick &quot;All GPUs&quot; under Advanced.</source>
        <translation>No se encontró fisura-cli, que entrena en las demás GPU, ni junto a Fisura ni en el PATH: instálelo o desmarque «Todas las GPU» en Avanzado.</translation>
    </message>
    <message>
        <source>No free TCP port on 127.0.0.1 for the GPUs to meet.</source>
        <translation>No hay ningún puerto TCP libre en 127.0.0.1 para que las GPU se comuniquen.</translation>
    </message>
    <message>
        <source>The process that trains on GPU %1 (fisura-cli) could not start or crashed.</source>
        <translation>El proceso que entrena en la GPU %1 (fisura-cli) no pudo iniciarse o terminó de forma anómala.</translation>
    </message>
    <message>
        <source>The process that trains on GPU %1 (fisura-cli) ended with exit code %2.</source>
        <translation>El proceso que entrena en la GPU %1 (fisura-cli) terminó con el código de salida %2.</translation>
    </message>
    <message>
        <source>Its last messages:</source>
        <translation>Sus últimos mensajes:</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainGalleryView</name>
    <message>
        <source>%1
F1 at the threshold: %2</source>
        <translation>%1
F1 en el umbral: %2</translation>
    </message>
    <message>
        <source>%1
Probability of the true class: %2</source>
        <translation>%1
Probabilidad de la clase real: %2</translation>
    </message>
    <message>
        <source>%1
Reconstruction error: %2</source>
        <translation>%1
Error de reconstrucción: %2</translation>
    </message>
    <message>
        <source>True: %1
Predicted: %2</source>
        <translation>Real: %1
Predicha: %2</translation>
    </message>
    <message>
        <source>F1 %1</source>
        <translation>F1 %1</translation>
    </message>
    <message>
        <source>Error %1</source>
        <translation>Error %1</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Mejores</translation>
    </message>
    <message>
        <source>Worst</source>
        <translation>Peores</translation>
    </message>
    <message>
        <source>No validation samples to show yet.</source>
        <translation>Todavía no hay muestras de validación que mostrar.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainLog</name>
    <message>
        <source>Epoch %1 of %2: training loss %3</source>
        <translation>Época %1 de %2: pérdida de entrenamiento %3</translation>
    </message>
    <message>
        <source>, validation loss %1</source>
        <translation>, pérdida de validación %1</translation>
    </message>
    <message>
        <source>, %1 %2</source>
        <translation>, %1 %2</translation>
    </message>
    <message>
        <source> (best so far, model saved)</source>
        <translation> (la mejor hasta ahora, modelo guardado)</translation>
    </message>
    <message>
        <source>The GPU ran out of memory with batches of %1: its cache was released and training continues with batches of %2.</source>
        <translation>La GPU se quedó sin memoria con lotes de %1: se liberó su caché y el entrenamiento continúa con lotes de %2.</translation>
    </message>
    <message numerus="yes">
        <source>No improvement for %n epoch(s): stopped early; the best model is kept.</source>
        <translation>
            <numerusform>Sin mejora en %n época: parada anticipada; se conserva el mejor modelo.</numerusform>
            <numerusform>Sin mejora en %n épocas: parada anticipada; se conserva el mejor modelo.</numerusform>
        </translation>
    </message>
    <message>
        <source>Resumed from the checkpoint after epoch %1.</source>
        <translation>Reanudado desde el punto de control tras la época %1.</translation>
    </message>
    <message>
        <source>Starts from %1: its network is kept (width %2, depth %3).</source>
        <translation>Parte de %1: se conserva su red (anchura %2, profundidad %3).</translation>
    </message>
    <message>
        <source>The BatchNorm statistics of %1 layers were re-estimated on %2 training crops.</source>
        <translation>Las estadísticas de BatchNorm de %1 capas se han vuelto a estimar con %2 recortes de entrenamiento.</translation>
    </message>
    <message>
        <source>The checkpoint&apos;s batch of %1 does not divide among %2 processes: %3 each.</source>
        <translation>El lote de %1 del punto de control no se reparte entre %2 procesos: %3 en cada uno.</translation>
    </message>
    <message>
        <source>The patch statistics are computed on the GPU: they fit in its free memory.</source>
        <translation>Las estadísticas de parches se calculan en la GPU: caben en su memoria libre.</translation>
    </message>
    <message>
        <source>The shrunk covariance is singular (a feature never varies): Ledoit-Wolf shrinkage is used instead.</source>
        <translation>La covarianza contraída es singular (una característica no varía nunca): se usa en su lugar la contracción de Ledoit-Wolf.</translation>
    </message>
    <message>
        <source>No validation images: the threshold comes from the training images.</source>
        <translation>No hay imágenes de validación: el umbral sale de las imágenes de entrenamiento.</translation>
    </message>
    <message>
        <source>Paused after epoch %1; the checkpoint is kept for resuming.</source>
        <translation>En pausa tras la época %1; se conserva el punto de control para reanudar.</translation>
    </message>
    <message>
        <source>Cancelled during epoch %1; the checkpoint of the last completed epoch and the best model are kept.</source>
        <translation>Cancelado durante la época %1; se conservan el punto de control de la última época completa y el mejor modelo.</translation>
    </message>
    <message>
        <source>The batch size was measured on the GPU.</source>
        <translation>El tamaño de lote se midió en la GPU.</translation>
    </message>
    <message>
        <source>The batch size could not be measured; the memory table&apos;s size is used.</source>
        <translation>No se pudo medir el tamaño de lote; se usa el de la tabla de memoria.</translation>
    </message>
    <message>
        <source>The run&apos;s saved split of training and validation images is used again.</source>
        <translation>Se reutiliza la división guardada de la ejecución entre imágenes de entrenamiento y de validación.</translation>
    </message>
    <message>
        <source>Skipped %1: %2</source>
        <translation>Omitido %1: %2</translation>
    </message>
    <message>
        <source>Check that the dataset folder still exists (or add it again), then start again.</source>
        <translation>Compruebe que la carpeta de datos sigue existiendo (o añádala de nuevo) y vuelva a empezar.</translation>
    </message>
    <message>
        <source>Check the dataset and the settings under Advanced, then start again.</source>
        <translation>Revise los datos y los ajustes de Avanzado y vuelva a empezar.</translation>
    </message>
    <message>
        <source>A file is damaged: remove or replace it in the dataset folder, then start again.</source>
        <translation>Hay un archivo dañado: quítelo o sustitúyalo en la carpeta de datos y vuelva a empezar.</translation>
    </message>
    <message>
        <source>Choose a smaller model size or batch size, or train on the processor (Advanced).</source>
        <translation>Elija un modelo o un lote más pequeño, o entrene en el procesador (Avanzado).</translation>
    </message>
    <message>
        <source>Start again; if it keeps failing, train on the processor (Advanced).</source>
        <translation>Vuelva a empezar; si sigue fallando, entrene en el procesador (Avanzado).</translation>
    </message>
    <message>
        <source>Check that the project folder is writable and that the disk has free space.</source>
        <translation>Compruebe que se puede escribir en la carpeta del proyecto y que el disco tiene espacio libre.</translation>
    </message>
    <message>
        <source>Start again; if it keeps failing, please report it with the log below.</source>
        <translation>Vuelva a empezar; si sigue fallando, infórmenos adjuntando el registro de abajo.</translation>
    </message>
    <message>
        <source>The training step could not be captured as a CUDA graph (%1); it runs op by op, at a little less speed.</source>
        <translation>El paso de entrenamiento no se pudo capturar como grafo CUDA (%1); se ejecuta operación a operación, algo más despacio.</translation>
    </message>
    <message>
        <source>Batches of %1 train on the processor in %2 parts of %3 with their gradients added up (a whole batch needs about %4 MiB, over the budget of %5 MiB): every step still learns from %1 images, but BatchNorm sees %3 at a time.</source>
        <translation>Los lotes de %1 se entrenan en el procesador en %2 partes de %3 sumando sus gradientes (un lote entero necesita unos %4 MiB, más que el presupuesto de %5 MiB): cada paso sigue aprendiendo de %1 imágenes, pero BatchNorm ve %3 a la vez.</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainPane</name>
    <message>
        <source>The model could not be evaluated: %1</source>
        <translation>No se pudo evaluar el modelo: %1</translation>
    </message>
    <message>
        <source>%1 training and %2 validation images, %3 batches per epoch, %4 parameters.</source>
        <translation>%1 imágenes de entrenamiento y %2 de validación, %3 lotes por época, %4 parámetros.</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>Entrenar</translation>
    </message>
    <message>
        <source>Train a model</source>
        <translation>Entrenar un modelo</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Empezar</translation>
    </message>
    <message>
        <source>Train a new model with these settings</source>
        <translation>Entrenar un modelo nuevo con estos ajustes</translation>
    </message>
    <message>
        <source>Pausing…</source>
        <translation>Pausando…</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausa</translation>
    </message>
    <message>
        <source>Finish the current epoch, keep its checkpoint and stop</source>
        <translation>Terminar la época en curso, guardar su punto de control y parar</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reanudar</translation>
    </message>
    <message>
        <source>Continue the selected paused or cancelled run from its checkpoint</source>
        <translation>Continuar la ejecución seleccionada (en pausa o cancelada) desde su punto de control</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Stop now; the best model so far is kept</source>
        <translation>Parar ahora; se conserva el mejor modelo hasta el momento</translation>
    </message>
    <message>
        <source>Analyze scans with this model</source>
        <translation>Analizar escaneos con este modelo</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Ejecuciones</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>Curvas</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Resultados</translation>
    </message>
    <message>
        <source>Curves appear here while a model trains.</source>
        <translation>Las curvas aparecen aquí mientras se entrena un modelo.</translation>
    </message>
    <message>
        <source>Open or create a project first (File menu); datasets belong to a project.</source>
        <translation>Primero abra o cree un proyecto (menú Archivo); los datos pertenecen a un proyecto.</translation>
    </message>
    <message>
        <source>The dataset could not be added: %1</source>
        <translation>No se pudieron añadir los datos: %1</translation>
    </message>
    <message>
        <source>Open or create a project (File menu) to train a model.</source>
        <translation>Abra o cree un proyecto (menú Archivo) para entrenar un modelo.</translation>
    </message>
    <message>
        <source>Add a dataset: a folder of images, with masks for segmentation.</source>
        <translation>Añada datos: una carpeta de imágenes, con máscaras para segmentar.</translation>
    </message>
    <message>
        <source>Training cannot start: %1
%2</source>
        <translation>El entrenamiento no puede empezar: %1
%2</translation>
    </message>
    <message>
        <source>Pausing after this epoch…</source>
        <translation>Pausando al terminar esta época…</translation>
    </message>
    <message>
        <source>The run cannot be resumed: %1
%2</source>
        <translation>La ejecución no se puede reanudar: %1
%2</translation>
    </message>
    <message>
        <source>A model is training.</source>
        <translation>Se está entrenando un modelo.</translation>
    </message>
    <message>
        <source>Resuming the run.</source>
        <translation>Reanudando la ejecución.</translation>
    </message>
    <message>
        <source>Starting a new run.</source>
        <translation>Empezando una ejecución nueva.</translation>
    </message>
    <message>
        <source>Results appear when training ends.</source>
        <translation>Los resultados aparecen cuando termina el entrenamiento.</translation>
    </message>
    <message>
        <source>Preparing the data and the model…</source>
        <translation>Preparando los datos y el modelo…</translation>
    </message>
    <message>
        <source>Resumed.</source>
        <translation>Reanudado.</translation>
    </message>
    <message>
        <source>Training…</source>
        <translation>Entrenando…</translation>
    </message>
    <message>
        <source>Training failed: %1
%2</source>
        <translation>El entrenamiento falló: %1
%2</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>El entrenamiento falló: %1</translation>
    </message>
    <message>
        <source>Paused after epoch %1. Resume continues from the checkpoint.</source>
        <translation>En pausa tras la época %1. Reanudar continúa desde el punto de control.</translation>
    </message>
    <message>
        <source>Cancelled. The best model so far is kept; Resume continues from the last completed epoch.</source>
        <translation>Cancelado. Se conserva el mejor modelo hasta el momento; Reanudar continúa desde la última época completa.</translation>
    </message>
    <message>
        <source>Training finished: best score %1 at epoch %2.</source>
        <translation>Entrenamiento terminado: mejor puntuación %1 en la época %2.</translation>
    </message>
    <message>
        <source>This run has no model yet.</source>
        <translation>Esta ejecución aún no tiene modelo.</translation>
    </message>
    <message>
        <source>This run failed: %1
%2</source>
        <translation>Esta ejecución falló: %1
%2</translation>
    </message>
    <message>
        <source>Select one run to see its results.</source>
        <translation>Seleccione una sola ejecución para ver sus resultados.</translation>
    </message>
    <message>
        <source>Evaluating the model on the validation images…</source>
        <translation>Evaluando el modelo con las imágenes de validación…</translation>
    </message>
    <message>
        <source>The threshold could not be saved: %1</source>
        <translation>No se pudo guardar el umbral: %1</translation>
    </message>
    <message>
        <source>The model now uses the threshold %1.</source>
        <translation>El modelo usa ahora el umbral %1.</translation>
    </message>
    <message>
        <source>Choose images to label next</source>
        <translation>Elegir qué imágenes etiquetar</translation>
    </message>
    <message>
        <source>Rank the unlabelled images of this dataset by how unsure this model is about them (Data pane)</source>
        <translation>Ordena las imágenes sin etiquetar de este conjunto según lo inseguro que está este modelo sobre ellas (panel Datos)</translation>
    </message>
    <message>
        <source>End this paused run: it is marked cancelled; its checkpoint and best model are kept</source>
        <translation>Terminar esta ejecución en pausa: queda cancelada; se conservan su punto de control y su mejor modelo</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) compared, one colour each.</source>
        <translation>
            <numerusform>%n ejecución comparada, con su color.</numerusform>
            <numerusform>%n ejecuciones comparadas, una por color.</numerusform>
        </translation>
    </message>
    <message>
        <source>The run could not be cancelled: %1</source>
        <translation>No se pudo cancelar la ejecución: %1</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainPlot</name>
    <message>
        <source>F1 of crack pixels (best threshold)</source>
        <translation>F1 de los píxeles de fisura (mejor umbral)</translation>
    </message>
    <message>
        <source>F1 of the cracked class</source>
        <translation>F1 de la clase con fisuras</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Pérdida</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Métrica</translation>
    </message>
    <message>
        <source>Training time (s)</source>
        <translation>Tiempo de entrenamiento (s)</translation>
    </message>
    <message>
        <source>Use (%)</source>
        <translation>Uso (%)</translation>
    </message>
    <message>
        <source>GPU memory (GiB)</source>
        <translation>Memoria de GPU (GiB)</translation>
    </message>
    <message>
        <source>Training loss (smoothed)</source>
        <translation>Pérdida de entrenamiento (suavizada)</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>Pérdida de validación</translation>
    </message>
    <message>
        <source>GPU utilization</source>
        <translation>Uso de la GPU</translation>
    </message>
    <message>
        <source>GPU memory allocated</source>
        <translation>Memoria de GPU asignada</translation>
    </message>
    <message>
        <source>GPU memory reserved</source>
        <translation>Memoria de GPU reservada</translation>
    </message>
    <message>
        <source>GPU memory peak</source>
        <translation>Pico de memoria de GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>Pérdida de entrenamiento</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainResultsView</name>
    <message>
        <source>Best epoch</source>
        <translation>Mejor época</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>Pérdida de entrenamiento</translation>
    </message>
    <message>
        <source>Validation loss</source>
        <translation>Pérdida de validación</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Exactitud</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precisión</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>Exhaustividad</translation>
    </message>
    <message>
        <source>F1 score</source>
        <translation>Puntuación F1</translation>
    </message>
    <message>
        <source>IoU at 0.5</source>
        <translation>IoU en 0,5</translation>
    </message>
    <message>
        <source>F1 at 0.5</source>
        <translation>F1 en 0,5</translation>
    </message>
    <message>
        <source>Precision at 0.5</source>
        <translation>Precisión en 0,5</translation>
    </message>
    <message>
        <source>Recall at 0.5</source>
        <translation>Exhaustividad en 0,5</translation>
    </message>
    <message>
        <source>Best threshold</source>
        <translation>Mejor umbral</translation>
    </message>
    <message>
        <source>IoU at the best threshold</source>
        <translation>IoU en el mejor umbral</translation>
    </message>
    <message>
        <source>F1 at the best threshold</source>
        <translation>F1 en el mejor umbral</translation>
    </message>
    <message>
        <source>Precision at the best threshold</source>
        <translation>Precisión en el mejor umbral</translation>
    </message>
    <message>
        <source>Recall at the best threshold</source>
        <translation>Exhaustividad en el mejor umbral</translation>
    </message>
    <message>
        <source>Mean error</source>
        <translation>Error medio</translation>
    </message>
    <message>
        <source>Median error</source>
        <translation>Error mediano</translation>
    </message>
    <message>
        <source>95th percentile error</source>
        <translation>Error del percentil 95</translation>
    </message>
    <message>
        <source>99th percentile error</source>
        <translation>Error del percentil 99</translation>
    </message>
    <message>
        <source>Largest error</source>
        <translation>Error máximo</translation>
    </message>
    <message>
        <source>Anomaly threshold</source>
        <translation>Umbral de anomalía</translation>
    </message>
    <message>
        <source>Epoch time</source>
        <translation>Duración de la época</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Training images per second</source>
        <translation>Imágenes de entrenamiento por segundo</translation>
    </message>
    <message>
        <source>At %1: precision %2, recall %3, F1 %4, IoU %5</source>
        <translation>En %1: precisión %2, exhaustividad %3, F1 %4, IoU %5</translation>
    </message>
    <message numerus="yes">
        <source>%n of the validation images lie above the threshold.</source>
        <translation>
            <numerusform>%n de las imágenes de validación queda por encima del umbral.</numerusform>
            <numerusform>%n de las imágenes de validación quedan por encima del umbral.</numerusform>
        </translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Métrica</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Validation samples: best and worst predictions</source>
        <translation>Muestras de validación: mejores y peores predicciones</translation>
    </message>
    <message>
        <source>The evaluation of the model appears here when training ends.</source>
        <translation>La evaluación del modelo aparece aquí cuando termina el entrenamiento.</translation>
    </message>
    <message>
        <source>Rows: true class. Columns: predicted class.</source>
        <translation>Filas: clase real. Columnas: clase predicha.</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Umbral</translation>
    </message>
    <message>
        <source>Move the threshold; the model keeps the one you choose</source>
        <translation>Mueva el umbral; el modelo guarda el que elija</translation>
    </message>
    <message>
        <source>Precision-recall curve</source>
        <translation>Curva de precisión-exhaustividad</translation>
    </message>
    <message>
        <source>Chosen threshold</source>
        <translation>Umbral elegido</translation>
    </message>
    <message>
        <source>Reconstruction error</source>
        <translation>Error de reconstrucción</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>Imágenes</translation>
    </message>
    <message>
        <source>Precision and recall of crack pixels over thresholds</source>
        <translation>Precisión y exhaustividad de los píxeles de fisura según el umbral</translation>
    </message>
    <message>
        <source>Confusion matrix</source>
        <translation>Matriz de confusión</translation>
    </message>
    <message>
        <source>Reconstruction errors of the validation images</source>
        <translation>Errores de reconstrucción de las imágenes de validación</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>Evaluación</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainSetupPanel</name>
    <message>
        <source>Task</source>
        <translation>Tarea</translation>
    </message>
    <message>
        <source>Segment cracks (pixel masks)</source>
        <translation>Segmentar fisuras (máscaras de píxeles)</translation>
    </message>
    <message>
        <source>Classify images (cracked or not)</source>
        <translation>Clasificar imágenes (con o sin fisuras)</translation>
    </message>
    <message>
        <source>Detect anomalies (learn crack-free surfaces)</source>
        <translation>Detectar anomalías (aprender superficies sin fisuras)</translation>
    </message>
    <message>
        <source>Model size</source>
        <translation>Tamaño del modelo</translation>
    </message>
    <message>
        <source>Small</source>
        <translation>Pequeño</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Mediano</translation>
    </message>
    <message>
        <source>Large</source>
        <translation>Grande</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Personalizado</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Épocas</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>Avanzado</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Tamaño de lote</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precisión</translation>
    </message>
    <message>
        <source>Processor only</source>
        <translation>Solo procesador</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Tasa de aprendizaje</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Programa</translation>
    </message>
    <message>
        <source>Validation fraction</source>
        <translation>Fracción de validación</translation>
    </message>
    <message>
        <source>Patience (epochs)</source>
        <translation>Paciencia (épocas)</translation>
    </message>
    <message>
        <source>Augmentation</source>
        <translation>Aumento de datos</translation>
    </message>
    <message>
        <source>Loader threads</source>
        <translation>Hilos de carga</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Semilla</translation>
    </message>
    <message>
        <source>Width (channels)</source>
        <translation>Anchura (canales)</translation>
    </message>
    <message>
        <source>Depth (levels)</source>
        <translation>Profundidad (niveles)</translation>
    </message>
    <message>
        <source>automatic (measured)</source>
        <translation>automático (medido)</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>automático</translation>
    </message>
    <message>
        <source>never stop early</source>
        <translation>no parar nunca antes</translation>
    </message>
    <message>
        <source>one cycle</source>
        <translation>un ciclo</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>coseno</translation>
    </message>
    <message>
        <source>%1 million parameters · about %2 of memory to train with batches of %3</source>
        <translation>%1 millones de parámetros · unos %2 de memoria para entrenar con lotes de %3</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Autoencoder (learns to redraw the surface)</source>
        <translation>Autoencoder (aprende a redibujar la superficie)</translation>
    </message>
    <message>
        <source>Patch statistics (PaDiM, fitted in one pass)</source>
        <translation>Estadística de parches (PaDiM, ajustada en una pasada)</translation>
    </message>
    <message>
        <source>Patch statistics need no training: a Gaussian of the features of crack-free images, fitted in one pass; a patch far from it scores high.</source>
        <translation>La estadística de parches no necesita entrenamiento: una gaussiana de las características de imágenes sin fisuras, ajustada en una pasada; un parche alejado de ella puntúa alto.</translation>
    </message>
    <message>
        <source>Features</source>
        <translation>Características</translation>
    </message>
    <message>
        <source>small random network</source>
        <translation>red aleatoria pequeña</translation>
    </message>
    <message>
        <source>gray pixel patches</source>
        <translation>parches de píxeles en gris</translation>
    </message>
    <message>
        <source>Feature channels</source>
        <translation>Canales de características</translation>
    </message>
    <message>
        <source>One distribution per image position</source>
        <translation>Una distribución por posición de la imagen</translation>
    </message>
    <message>
        <source>Compute threads</source>
        <translation>Hilos de cálculo</translation>
    </message>
    <message numerus="yes">
        <source>%Ln distribution(s) of %1 features · about %2 of memory to fit, %3 in the model file</source>
        <translation>
            <numerusform>%Ln distribución de %1 características · unos %2 de memoria para ajustarla, %3 en el archivo del modelo</numerusform>
            <numerusform>%Ln distribuciones de %1 características · unos %2 de memoria para ajustarlas, %3 en el archivo del modelo</numerusform>
        </translation>
    </message>
    <message>
        <source>All GPUs</source>
        <translation>Todas las GPU</translation>
    </message>
    <message numerus="yes">
        <source>train on all %n GPUs</source>
        <translation>
            <numerusform>entrenar en la %n GPU</numerusform>
            <numerusform>entrenar en las %n GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>Every GPU trains on its share of each batch and the gradients are averaged: about N times the images per second. Untick to train on one GPU.</source>
        <translation>Cada GPU entrena con su parte de cada lote y se promedian los gradientes: unas N veces más imágenes por segundo. Desmarque para entrenar en una sola GPU.</translation>
    </message>
    <message>
        <source>Crop size</source>
        <translation>Tamaño del recorte</translation>
    </message>
    <message>
        <source>from the crop size</source>
        <translation>según el tamaño del recorte</translation>
    </message>
    <message>
        <source>%1 million parameters · batches of %3 would need about %2 of memory; on the processor they train in %4 parts of %5, about %6 each</source>
        <translation>%1 millones de parámetros · los lotes de %3 necesitarían unos %2 de memoria; en el procesador se entrenan en %4 partes de %5, unos %6 cada una</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TrainStatus</name>
    <message>
        <source>Epoch %1 of %2 · batch %3 of %4 · %5 images/s</source>
        <translation>Época %1 de %2 · lote %3 de %4 · %5 imágenes/s</translation>
    </message>
    <message>
        <source>pausing after this epoch</source>
        <translation>se pausa al terminar esta época</translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>cancelando…</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message numerus="yes">
        <source>Finished: %n epoch(s) in %1</source>
        <translation>
            <numerusform>Terminada: %n época en %1</numerusform>
            <numerusform>Terminada: %n épocas en %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Paused after epoch %1 of %2</source>
        <translation>En pausa tras la época %1 de %2</translation>
    </message>
    <message>
        <source>Cancelled after %1 of %2 epochs</source>
        <translation>Cancelada tras %1 de %2 épocas</translation>
    </message>
    <message>
        <source>Failed after %1 of %2 epochs</source>
        <translation>Falló tras %1 de %2 épocas</translation>
    </message>
    <message>
        <source>Interrupted after %1 of %2 epochs</source>
        <translation>Interrumpida tras %1 de %2 épocas</translation>
    </message>
    <message>
        <source>best %1 %2 at epoch %3</source>
        <translation>mejor %1: %2 en la época %3</translation>
    </message>
</context>
<context>
    <name>fisura::ui::TruthPanel</name>
    <message>
        <source>The tolerance changed: compare again to update the layers and the numbers.</source>
        <translation>La tolerancia ha cambiado: compare de nuevo para actualizar las capas y las cifras.</translation>
    </message>
    <message>
        <source>Ground truth</source>
        <translation>Referencia</translation>
    </message>
    <message>
        <source>No ground truth attached.</source>
        <translation>No hay ninguna referencia adjunta.</translation>
    </message>
    <message>
        <source>Attached: %1</source>
        <translation>Adjunta: %1</translation>
    </message>
    <message>
        <source>Attach ground truth…</source>
        <translation>Adjuntar referencia…</translation>
    </message>
    <message>
        <source>A crack mask (TIFF or PNG) of the scan&apos;s size</source>
        <translation>Una máscara de fisuras (TIFF o PNG) del tamaño del escaneo</translation>
    </message>
    <message>
        <source>Tolerance</source>
        <translation>Tolerancia</translation>
    </message>
    <message>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source>A prediction this close to a crack of the ground truth counts as correct, and a crack this close to a prediction counts as found</source>
        <translation>Una predicción a esta distancia de una fisura de la referencia cuenta como correcta, y una fisura a esta distancia de una predicción cuenta como encontrada</translation>
    </message>
    <message>
        <source>Compare with the map</source>
        <translation>Comparar con el mapa</translation>
    </message>
    <message>
        <source>Score the selected probability map against the ground truth, pixel by pixel</source>
        <translation>Evaluar el mapa de probabilidad seleccionado frente a la referencia, píxel a píxel</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Umbral</translation>
    </message>
    <message>
        <source>The crack probability from which a pixel counts as predicted</source>
        <translation>La probabilidad de fisura a partir de la cual un píxel cuenta como predicho</translation>
    </message>
    <message>
        <source>Open a scan first.</source>
        <translation>Abra primero un escaneo.</translation>
    </message>
    <message>
        <source>The ground truth %1 does not exist.</source>
        <translation>La referencia %1 no existe.</translation>
    </message>
    <message>
        <source>The ground truth cannot be read: %1</source>
        <translation>No se puede leer la referencia: %1</translation>
    </message>
    <message>
        <source>The ground truth is %1 × %2 px but the scan is %3 × %4 px: a ground-truth mask must have the scan&apos;s size.</source>
        <translation>La referencia mide %1 × %2 px pero el escaneo mide %3 × %4 px: una máscara de referencia debe tener el tamaño del escaneo.</translation>
    </message>
    <message>
        <source>The ground truth cannot be shown: %1</source>
        <translation>No se puede mostrar la referencia: %1</translation>
    </message>
    <message>
        <source>Attach ground truth</source>
        <translation>Adjuntar referencia</translation>
    </message>
    <message>
        <source>Masks</source>
        <translation>Máscaras</translation>
    </message>
    <message>
        <source>Attach a ground truth first.</source>
        <translation>Adjunte primero una referencia.</translation>
    </message>
    <message>
        <source>Add a probability map as a layer to compare it with the ground truth.</source>
        <translation>Añada un mapa de probabilidad como capa para compararlo con la referencia.</translation>
    </message>
    <message>
        <source>Comparing %1 with the ground truth…</source>
        <translation>Comparando %1 con la referencia…</translation>
    </message>
    <message>
        <source>Compared with the ground truth: F1 %1 at threshold %2.</source>
        <translation>Comparado con la referencia: F1 %1 con umbral %2.</translation>
    </message>
    <message>
        <source>The comparison was cancelled.</source>
        <translation>Se canceló la comparación.</translation>
    </message>
    <message>
        <source>The comparison failed: %1</source>
        <translation>La comparación falló: %1</translation>
    </message>
    <message>
        <source>Show the comparison</source>
        <translation>Mostrar la comparación</translation>
    </message>
    <message>
        <source>Colour true positives, false positives and missed cracks instead of the map; click again to see the map</source>
        <translation>Colorea verdaderos positivos, falsos positivos y fisuras no detectadas en lugar del mapa; otro clic vuelve al mapa</translation>
    </message>
</context>
<context>
    <name>fisura::ui::UsageGauge</name>
    <message>
        <source>CPU %1 %</source>
        <translation>CPU %1 %</translation>
    </message>
    <message>
        <source>GPU %1 %, memory %2 / %3 GiB</source>
        <translation>GPU %1 %, memoria %2 / %3 GiB</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
</context>
<context>
    <name>fisura::ui::ViewerRuler</name>
    <message>
        <source>%1 px</source>
        <translation>%1 px</translation>
    </message>
    <message>
        <source>%1 m</source>
        <translation>%1 m</translation>
    </message>
    <message>
        <source>%1 mm</source>
        <translation>%1 mm</translation>
    </message>
</context>
<context>
    <name>fisura::ui::WelcomePage</name>
    <message>
        <source>Welcome to Fisura</source>
        <translation>Bienvenido a Fisura</translation>
    </message>
    <message>
        <source>Fisura finds cracks in images of concrete, asphalt and masonry and measures them. Everything you do is kept in a project: its datasets, the models you train and the scans you analyse.</source>
        <translation>Fisura encuentra fisuras en imágenes de hormigón, asfalto y mampostería y las mide. Todo lo que haga se guarda en un proyecto: sus conjuntos de datos, los modelos que entrene y los escaneos que analice.</translation>
    </message>
    <message>
        <source>Open the demo project</source>
        <translation>Abrir el proyecto de demostración</translation>
    </message>
    <message>
        <source>Start here: a small dataset with exact crack masks and a scan to analyse. Train a first model with Train → Start.</source>
        <translation>Empiece aquí: un pequeño conjunto de datos con máscaras exactas de fisuras y un escaneo para analizar. Entrene un primer modelo con Entrenar → Empezar.</translation>
    </message>
    <message>
        <source>Create a project…</source>
        <translation>Crear un proyecto…</translation>
    </message>
    <message>
        <source>Choose an empty folder for your project, then add your images as a dataset in the Train pane.</source>
        <translation>Elija una carpeta vacía para su proyecto y añada después sus imágenes como conjunto de datos en el panel Entrenar.</translation>
    </message>
    <message>
        <source>Open a project…</source>
        <translation>Abrir un proyecto…</translation>
    </message>
    <message>
        <source>Continue with a project made earlier (its folder or its project.json).</source>
        <translation>Continúe con un proyecto creado antes (su carpeta o su project.json).</translation>
    </message>
    <message>
        <source>Open a scan…</source>
        <translation>Abrir un escaneo…</translation>
    </message>
    <message>
        <source>Look at a scan of any size in Inspect, measure distances and lay maps or masks over it; no project needed.</source>
        <translation>Vea un escaneo de cualquier tamaño en Inspeccionar, mida distancias y superponga mapas o máscaras; no hace falta un proyecto.</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Crack inspection workbench</source>
        <translation>Banco de trabajo para inspección de fisuras</translation>
    </message>
    <message>
        <source>Print the version and exit.</source>
        <translation>Muestra la versión y sale.</translation>
    </message>
    <message>
        <source>Open the demo dataset in &lt;dir&gt;, generating it first if needed.</source>
        <translation>Abre los datos de demostración en &lt;dir&gt; y los genera antes si hace falta.</translation>
    </message>
    <message>
        <source>Quit after &lt;ms&gt; milliseconds (for smoke tests).</source>
        <translation>Sale tras &lt;ms&gt; milisegundos (para pruebas rápidas).</translation>
    </message>
    <message>
        <source>Open the project in &lt;dir&gt;.</source>
        <translation>Abre el proyecto de &lt;dir&gt;.</translation>
    </message>
    <message>
        <source>Show this pane: data, train, analyze, inspect or system.</source>
        <translation>Muestra este panel: data, train, analyze, inspect o system.</translation>
    </message>
    <message>
        <source>Start training with the Train pane&apos;s settings once the project is open.</source>
        <translation>Empieza a entrenar con los ajustes del panel Entrenar en cuanto el proyecto esté abierto.</translation>
    </message>
    <message>
        <source>Add this scan (or folder) to the Analyze queue and run the queue; may be given several times.</source>
        <translation>Añade este escaneo (o carpeta) a la cola de Analizar y ejecuta la cola; puede indicarse varias veces.</translation>
    </message>
    <message>
        <source>Open this scan in Inspect.</source>
        <translation>Abre este escaneo en Inspeccionar.</translation>
    </message>
    <message>
        <source>Language for this start or the report: es or en (not remembered).</source>
        <translation>Idioma para este inicio o para el informe: es o en (no se recuerda).</translation>
    </message>
    <message>
        <source>With --inspect: lay this map over the scan; with --report-pdf: the map to measure.</source>
        <translation>Con --inspect: superpone este mapa al escaneo; con --report-pdf: el mapa que se mide.</translation>
    </message>
    <message>
        <source>With --map: the crack probability from which a pixel is crack, 0 to 1 (default 0.5).</source>
        <translation>Con --map: la probabilidad de fisura a partir de la cual un píxel es fisura, de 0 a 1 (por defecto 0.5).</translation>
    </message>
    <message>
        <source>With --map: measure the cracks of the map.</source>
        <translation>Con --map: mide las fisuras del mapa.</translation>
    </message>
    <message>
        <source>--threshold %1 is a map byte; use --threshold %2 (a crack probability from 0 to 1).</source>
        <translation>--threshold %1 es un byte del mapa; use --threshold %2 (una probabilidad de fisura de 0 a 1).</translation>
    </message>
    <message>
        <source>--threshold must be a crack probability from 0 to 1.</source>
        <translation>--threshold debe ser una probabilidad de fisura de 0 a 1.</translation>
    </message>
    <message>
        <source>Start labelling this image in Inspect.</source>
        <translation>Empezar a etiquetar esta imagen en Inspeccionar.</translation>
    </message>
    <message>
        <source>A project (its folder or project.json) or a scan to open.</source>
        <translation>Un proyecto (su carpeta o project.json) o un escaneo que abrir.</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>No se puede abrir %1</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Ajustes</translation>
    </message>
    <message>
        <source>Open the demo project (Documents/Fisura/demo-project), generating it first if needed.</source>
        <translation>Abre el proyecto de demostración (Documents/Fisura/demo-project) y lo genera antes si hace falta.</translation>
    </message>
</context>
</TS>
